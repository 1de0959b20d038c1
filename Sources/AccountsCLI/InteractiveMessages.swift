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
    var idPrompt: String { ko ? "아이디(이메일): " : "ID (email): " }
    var nicknamePrompt: String { ko ? "닉네임: " : "Nickname: " }
    var rememberPrompt: String { ko ? "로그인 상태 유지? (y/N): " : "Remember me? (y/N): " }
    var goodbye: String { ko ? "안녕히 가세요." : "Goodbye." }
    var cancelled: String { ko ? "취소했습니다. 아무것도 바뀌지 않았습니다." : "Cancelled; nothing was changed." }
}
