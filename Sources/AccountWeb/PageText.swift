import AccountCore

/// The pages' words, in English and Korean. Rule messages come from `AccountError` and the
/// rule summaries from `RuleSummary`, as in the terminal app.
struct PageText: Sendable {
    let language: Language
    private var ko: Bool { language == .korean }

    var otherLanguage: Language { ko ? .english : .korean }
    /// The other language's name, written in that language.
    var otherLanguageName: String { ko ? "English" : "한국어" }
    var languageNavigation: String { ko ? "언어" : "Language" }

    var startTitle: String { ko ? "AccountStore에 오신 것을 환영합니다" : "Welcome to AccountStore" }
    var startLead: String {
        ko ? "로그인되어 있지 않습니다. 회원가입하거나 로그인하세요." : "You are not signed in. Sign up or log in."
    }
    /// The lead under a notice that already says why the visitor is not signed in (logged out,
    /// withdrawn, expired): only what to do next, so the page says it once.
    var startLeadAfterNotice: String { ko ? "회원가입하거나 로그인하세요." : "Sign up or log in." }
    var signUp: String { ko ? "회원가입" : "Sign up" }
    var logIn: String { ko ? "로그인" : "Log in" }
    var logOut: String { ko ? "로그아웃" : "Log out" }
    var changePassword: String { ko ? "비밀번호 변경" : "Change password" }
    var withdraw: String { ko ? "회원 탈퇴" : "Withdraw" }
    var backToWelcome: String { ko ? "환영 화면으로 돌아가기" : "Back to the welcome screen" }
    var haveAccount: String { ko ? "이미 회원이신가요? 로그인" : "Already a member? Log in" }
    var noAccount: String { ko ? "처음이신가요? 회원가입" : "New here? Sign up" }

    var forgotLink: String { ko ? "비밀번호를 잊으셨나요?" : "Forgot your password?" }
    /// A provider's button on the login page.
    func signInWith(_ provider: String) -> String { ko ? "\(provider)(으)로 로그인" : "Sign in with \(provider)" }
    var forgotTitle: String { ko ? "비밀번호 찾기" : "Forgot your password" }
    var sendMail: String { ko ? "메일 보내기" : "Send the mail" }
    func mailSent(_ email: String) -> String {
        ko
            ? "\(email)을(를) 쓰는 계정이 있으면 비밀번호를 다시 정하는 링크를 메일로 보냈습니다. 링크는 한 번만, 잠시 동안 쓸 수 있습니다."
            : "If an account uses \(email), we sent it a mail with a link to set a new password. The link works once, for a while."
    }
    var resetTitle: String { ko ? "새 비밀번호 정하기" : "Choose a new password" }
    var setPassword: String { ko ? "비밀번호 정하기" : "Set the password" }
    var resetLinkMissing: String {
        ko ? "메일에 있는 링크를 여세요. 링크가 오래되었으면 메일을 다시 요청하세요." : "Open the link in the mail; if it is old, ask for a new mail."
    }
    var verifyTitle: String { ko ? "이메일 인증" : "Email address" }
    var emailProven: String { ko ? "이메일 주소가 인증되었습니다." : "Your email address is proven." }
    var idLabel: String { ko ? "아이디(이메일)" : "ID (email)" }
    var nicknameLabel: String { ko ? "닉네임" : "Nickname" }
    var passwordLabel: String { ko ? "비밀번호" : "Password" }
    var confirmationLabel: String { ko ? "비밀번호 확인" : "Confirm password" }
    var currentPasswordLabel: String { ko ? "현재 비밀번호" : "Current password" }
    var newPasswordLabel: String { ko ? "새 비밀번호" : "New password" }
    var confirmNewPasswordLabel: String { ko ? "새 비밀번호 확인" : "Confirm the new password" }
    var rememberLabel: String { ko ? "로그인 상태 유지" : "Remember me" }
    var rememberHint: String {
        ko ? "브라우저를 닫아도 로그인이 유지됩니다." : "Stay signed in after the browser is closed."
    }

    func signedInAs(_ email: String) -> String { ko ? "아이디: \(email)" : "Signed in as \(email)." }

    var withdrawWarning: String {
        ko
            ? "탈퇴하면 계정과 모든 로그인 세션이 삭제되며 되돌릴 수 없습니다."
            : "Withdrawing deletes your account and signs you out everywhere. It cannot be undone."
    }
    var withdrawConfirmLabel: String {
        ko ? "계정이 삭제된다는 것을 이해했습니다." : "I understand that my account will be deleted."
    }
    var withdrawConfirmMissing: String {
        ko ? "탈퇴하려면 확인란을 선택하세요." : "Tick the box to confirm the withdrawal."
    }
    var passwordMissing: String { ko ? "비밀번호를 입력하세요." : "Enter your password." }
    var currentPasswordMissing: String { ko ? "현재 비밀번호를 입력하세요." : "Enter your current password." }

    var staleForm: String {
        ko
            ? "양식이 만료되었습니다. 다시 입력한 뒤 제출하세요. 아무것도 변경되지 않았습니다."
            : "This form had expired; fill it in and send it again. Nothing was changed."
    }
    var crossSiteForm: String {
        ko
            ? "다른 사이트에서 보낸 양식은 받지 않습니다. 아무것도 변경되지 않았습니다."
            : "This form was sent from another site, which is refused; nothing was changed."
    }
    var unreadableForm: String {
        ko ? "양식을 읽을 수 없습니다. 아무것도 변경되지 않았습니다." : "The form could not be read; nothing was changed."
    }
    var errorTitle: String { ko ? "오류" : "Something went wrong" }
    /// The page of a request that carries one of the site's cookies twice.
    func repeatedCookie(_ name: String) -> String {
        ko
            ? "이 브라우저가 같은 이름의 쿠키(\(name))를 두 번 보냈습니다. 이 사이트의 쿠키를 지운 뒤 다시 시도하세요. 아무것도 바뀌지 않았습니다."
            : "This browser sent the cookie \(name) twice. Clear this site's cookies and try again; nothing was changed."
    }
    var notFoundTitle: String { ko ? "페이지를 찾을 수 없습니다" : "Page not found" }
    var notFoundMessage: String {
        ko ? "이 주소에는 페이지가 없습니다." : "There is no page at this address."
    }
    var startLink: String { ko ? "시작 화면으로" : "Go to the start screen" }

    var sessionsTitle: String { ko ? "로그인된 기기" : "Where you are signed in" }
    var unknownDevice: String { ko ? "알 수 없는 기기" : "Unknown device" }
    var thisDevice: String { ko ? "(이 기기)" : "(this device)" }
    func signedInAt(_ time: String) -> String { ko ? "로그인: \(time)" : "Signed in \(time)" }
    func lastUsedAt(_ time: String) -> String { ko ? "마지막 사용: \(time)" : "last used \(time)" }
    var signOutSession: String { ko ? "이 기기 로그아웃" : "Sign out this device" }
    var signOutOthers: String { ko ? "다른 모든 기기 로그아웃" : "Sign out everywhere else" }

    // Notices after a redirect: chosen from a fixed list, never text from the URL.
    func notice(_ name: String?) -> String? {
        switch name {
        case "logged_out": ko ? "로그아웃했습니다." : "You are logged out."
        case "withdrawn": ko ? "탈퇴했습니다. 계정이 삭제되었습니다." : "Your account was deleted."
        case "password_changed":
            ko
                ? "비밀번호를 변경했습니다. 다른 기기의 로그인은 모두 해제되었습니다."
                : "Your password was changed; every other session was signed out."
        case "session_expired": ko ? "세션이 만료되었습니다. 다시 로그인하세요." : "Your session expired; log in again."
        case "session_revoked": ko ? "그 기기를 로그아웃했습니다." : "That device was signed out."
        case "other_sessions_revoked": ko ? "다른 모든 기기를 로그아웃했습니다." : "Every other device was signed out."
        case "session_not_found":
            ko ? "그 세션은 이미 로그아웃되었습니다." : "That session was already signed out."
        default: nil
        }
    }
}
