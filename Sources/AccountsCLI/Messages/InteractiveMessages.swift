import AccountCore

/// The sentences of the interactive flow, in English and Korean.
struct InteractiveMessages {
    let language: Language
    private var ko: Bool { language == .korean }

    var guestMenu: [String] {
        ko
            ? ["로그인되어 있지 않습니다.", "  1) 회원가입", "  2) 로그인", "  q) 종료"]
            : ["You are not signed in.", "  1) Sign up", "  2) Log in", "  q) Quit"]
    }
    var memberMenu: [String] {
        ko
            ? ["  1) 로그아웃", "  2) 비밀번호 변경", "  3) 회원 탈퇴", "  q) 종료"]
            : ["  1) Log out", "  2) Change password", "  3) Withdraw", "  q) Quit"]
    }
    var choose: String { ko ? "선택: " : "Choose: " }
    var unknownChoice: String { ko ? "목록에 있는 번호를 입력하세요." : "Type one of the choices above." }
    var signUpTitle: String { ko ? "— 회원가입 —" : "— Sign up —" }
    var loginTitle: String { ko ? "— 로그인 —" : "— Log in —" }
    var changePasswordTitle: String { ko ? "— 비밀번호 변경 —" : "— Change password —" }
    var backHint: String { ko ? "(빈 칸으로 Enter를 누르면 이전 단계로 돌아갑니다.)" : "(Press Enter on an empty field to go back.)" }
    var idRules: String { RuleSummary.id(language) }
    var nicknameRules: String { RuleSummary.nickname(language) }
    func passwordRules(_ policy: PasswordPolicy) -> String { RuleSummary.password(policy, language) }
    var confirmationRules: String { RuleSummary.confirmation(language) }
    func signedInAs(_ email: String) -> String { ko ? "아이디: \(email)" : "Signed in as \(email)." }
    /// The words the withdrawal prompt asks for, the first shown first; nothing else confirms it.
    /// In Korean, `네` (the answer a Korean speaker types) and the English `yes`.
    var confirmationWords: [String] { ko ? ["네", "yes"] : ["yes"] }
    var idPrompt: String { ko ? "아이디(이메일): " : "ID (email): " }
    var nicknamePrompt: String { ko ? "닉네임: " : "Nickname: " }
    var rememberPrompt: String { ko ? "로그인 상태 유지? (y/N): " : "Remember me? (y/N): " }
    var goodbye: String { ko ? "안녕히 가세요." : "Goodbye." }
    /// Ctrl-D leaves the app; what was submitted before stays, so it must not say "nothing changed".
    var cancelled: String { ko ? "취소했습니다. 마치지 않은 입력은 저장되지 않았습니다." : "Cancelled; nothing unfinished was saved." }
}
