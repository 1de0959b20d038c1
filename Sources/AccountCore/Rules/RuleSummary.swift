/// One sentence per sign-up field that tells its rules before anything is typed: shown by every
/// front end (the terminal app before a prompt, a web form under its field), so they cannot
/// drift apart.
public enum RuleSummary {
    /// The ID (email) rules.
    public static func id(_ language: Language) -> String {
        language == .korean
            ? "아이디는 이메일입니다: @ 앞은 영문 소문자와 숫자 6–20자(숫자로 시작할 수 없음), @ 뒤는 example.com 같은 도메인."
            : "The ID is an email: 6–20 lowercase letters and digits before '@', not starting with a digit; a domain like example.com after it."
    }

    /// The nickname rules.
    public static func nickname(_ language: Language) -> String {
        language == .korean
            ? "닉네임은 2–20자이며 제어 문자와 줄바꿈은 쓸 수 없습니다."
            : "The nickname is 2–20 characters, without control characters or line breaks."
    }

    /// The password rules of `policy`.
    public static func password(_ policy: PasswordPolicy, _ language: Language) -> String {
        let range = "\(policy.minimumLength)–\(policy.maximumLength)"
        return language == .korean
            ? "비밀번호는 \(range)자이며, 추측하기 어렵고, 아이디(@ 앞부분)와 닉네임을 포함할 수 없습니다."
            : "The password is \(range) characters, hard to guess, and must not contain the ID (before '@') or the nickname."
    }

    /// The confirmation rule.
    public static func confirmation(_ language: Language) -> String {
        language == .korean ? "같은 비밀번호를 한 번 더 입력하세요." : "Type the same password again."
    }
}
