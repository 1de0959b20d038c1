/// The English and Korean text of every `AccountError`, kept in one place so the two languages
/// stay in step.
enum ErrorMessages {
    static func message(for error: AccountError, in language: Language) -> String {
        let korean = language == .korean
        switch error {
        case .invalidEmail(let rule):
            return email(rule, korean: korean)
        case .invalidPassword(let rule, let minimum, let maximum):
            return password(rule, minimum: minimum, maximum: maximum, korean: korean)
        case .weakPassword:
            return korean
                ? "비밀번호가 너무 추측하기 쉽습니다. 더 길거나 흔하지 않은 단어 조합을 사용하세요."
                : "The password is too easy to guess; use a longer or less common combination of words."
        case .passwordMismatch:
            return korean
                ? "비밀번호 확인이 비밀번호와 일치하지 않습니다." : "The password confirmation does not match the password."
        case .invalidNickname(let rule):
            return nickname(rule, korean: korean)
        case .emailTaken:
            return korean ? "이미 사용 중인 아이디(이메일)입니다." : "This email is already registered."
        case .identityTaken:
            return korean
                ? "이 외부 계정은 이미 다른 계정에 연결되어 있습니다." : "This outside identity is already linked to an account."
        case .invalidCode:
            return korean
                ? "코드가 올바르지 않습니다. 이미 사용했거나, 새 요청으로 바뀌었거나, 만료되었습니다. 메일을 다시 요청하세요."
                : "The code is not valid: it was mistyped, used already, replaced by a newer request, or expired. Ask for a new mail."
        case .emailNotVerified:
            return korean
                ? "이메일 인증이 필요합니다. 받은 메일의 링크를 여세요. 메일이 없으면 인증 메일을 다시 요청하세요."
                : "The email address must be proven first: open the link in the mail we sent, or ask for it again."
        case .identityNotLinked:
            return korean
                ? "이 이메일의 계정이 이미 있습니다. 먼저 비밀번호로 로그인한 뒤 이 외부 계정을 연결하세요."
                : "An account with this email exists already: sign in with its password first, then link this provider."
        case .providerEmailUnverified:
            return korean
                ? "외부 계정에 인증된 이메일이 없어 계정을 만들 수 없습니다. 그곳에서 이메일을 인증한 뒤 다시 시도하세요."
                : "The provider gave no verified email, so no account can be made: verify an email there and try again."
        case .lastWayIn:
            return korean
                ? "이 외부 계정은 로그인할 수 있는 유일한 방법이라 연결을 끊을 수 없습니다. 먼저 비밀번호를 정하세요."
                : "This identity is the account's only way in and cannot be unlinked: set a password first."
        case .identityNotFound:
            return korean
                ? "이 계정에 연결된 그런 외부 계정이 없습니다." : "No such identity is linked to this account."
        case .providerFlowInvalid(let reason):
            return korean
                ? "외부 로그인 요청이 이 브라우저의 것이 아니거나 끝났습니다(\(reason)). 처음부터 다시 시도하세요."
                : "The provider sign-in is not this browser's or is over (\(reason)); start again."
        case .providerFailed(let provider, let reason):
            return korean
                ? "외부 로그인 제공자 \(provider)에 문제가 있습니다: \(reason)"
                : "The sign-in provider \(provider) failed: \(reason)"
        case .invalidCredentials:
            return korean ? "이메일 또는 비밀번호가 올바르지 않습니다." : "The email or password is incorrect."
        case .wrongPassword(let current):
            switch (korean, current) {
            case (true, true): return "현재 비밀번호가 올바르지 않습니다."
            case (true, false): return "비밀번호가 올바르지 않습니다."
            case (false, true): return "The current password is incorrect."
            case (false, false): return "The password is incorrect."
            }
        case .tooManyAttempts(let seconds):
            return korean
                ? "로그인 실패가 너무 많습니다. \(seconds)초 후에 다시 시도하세요."
                : "Too many failed attempts; try again in \(EnglishPlural.count(seconds, "second"))."
        case .accountBlocked:
            return korean
                ? "이 계정은 차단되어 로그인할 수 없습니다. 서비스 운영자에게 문의하세요."
                : "This account is blocked and cannot sign in; ask the service's operator."
        case .passwordChangeRequired:
            return korean
                ? "이 계정의 비밀번호는 임시 비밀번호입니다. 새 비밀번호를 정해 다시 로그인하세요."
                : "This account's password is temporary; sign in again with a new password."
        case .notSignedIn:
            return korean ? "로그인되어 있지 않습니다." : "You are not signed in."
        case .sessionExpired:
            return korean ? "세션이 만료되었습니다. 다시 로그인하세요." : "Your session has expired; log in again."
        case .invalidDeviceName:
            return korean
                ? "기기 이름은 보이는 문자 1~\(DeviceName.maximumLength)자여야 합니다."
                : "A device name must be 1 to \(DeviceName.maximumLength) visible characters."
        case .sessionNotFound:
            return korean
                ? "해당 세션이 없습니다. 이미 로그아웃되었거나 다른 계정의 세션입니다."
                : "You have no session with this id; it was signed out already, or never was yours."
        case .storeCorrupted(let errorDetail):
            let detail = errorDetail.text(language)
            return korean
                ? "저장소가 손상되었습니다 (변경하지 않았습니다): \(detail)"
                : "The store is corrupted and was left untouched: \(detail)"
        case .storeVersionUnsupported(let found, let supported):
            return korean
                ? "저장소 형식 버전 \(found)은(는) 지원되지 않습니다 (지원: \(supported) 이하). 새 버전의 accounts가 필요합니다."
                : "The store has format version \(found); this build reads up to \(supported). A newer accounts is needed."
        case .storeUpgradeNeeded(let found, let current):
            return korean
                ? "저장소 형식 버전 \(found)은(는) 이 빌드의 \(current)보다 오래되었습니다. 읽기만 하는 명령은 저장소를 바꾸지 않습니다. `accounts upgrade`(또는 쓰는 명령)로 올리세요."
                : "The store has format version \(found), older than this build's \(current); a command that only reads never changes a store. Run `accounts upgrade` (or any command that writes) to upgrade it."
        case .storeKindMismatch(let expected, let found):
            return korean
                ? "이 파일은 \(expected) 저장소가 아니라 \(found)입니다. 올바른 --backend 또는 경로를 지정하세요."
                : "This file is not a store of the \(expected) backend but \(found); choose the matching --backend or another path."
        case .storeBusy(let errorDetail):
            let detail = errorDetail.text(language)
            return korean
                ? "저장소가 다른 프로세스에 의해 사용 중입니다: \(detail)" : "The store is busy in another process: \(detail)"
        case .storeIO(let errorDetail):
            let detail = errorDetail.text(language)
            return korean ? "저장소 입출력 오류: \(detail)" : "Store I/O error: \(detail)"
        case .configInvalid(let key, let reason):
            return korean ? "설정 '\(key)'이(가) 잘못되었습니다: \(reason)" : "Invalid configuration '\(key)': \(reason)"
        case .invalidExport(let errorDetail):
            let detail = errorDetail.text(language)
            return korean
                ? "내보내기 파일이 잘못되었습니다: \(detail)"
                : "The export file is invalid: \(detail)"
        case .storeNotEmpty(let errorDetail):
            let detail = errorDetail.text(language)
            return korean
                ? "대상 저장소가 비어 있지 않습니다: \(detail)"
                : "The target store is not empty: \(detail)"
        case .storeNotFound(let location):
            return korean
                ? "\(location)에 저장소가 없습니다 (아무것도 만들지 않았습니다). 경로를 확인하거나, 가입(signup)이나 가져오기(import)로 새 저장소를 만드세요."
                : "There is no store at \(location), and none was created; check the path, or create one with signup or import."
        case .unknownBackend(let name, let known, let setBy):
            let list = known.joined(separator: ", ")
            let origin = setBy.map { korean ? " (backend, \($0))" : " (backend, \($0))" } ?? ""
            return korean
                ? "알 수 없는 백엔드 '\(name)'\(origin). 사용 가능: \(list)"
                : "Unknown backend '\(name)'\(origin). Known backends: \(list)"
        }
    }

    private static func email(_ rule: EmailRule, korean: Bool) -> String {
        switch rule {
        case .empty:
            korean ? "이메일을 입력하세요." : "Enter an email address."
        case .missingAt:
            korean ? "이메일에는 '@'가 하나 있어야 합니다." : "The email must contain one '@'."
        case .multipleAt:
            korean ? "이메일에는 '@'가 하나만 있어야 합니다." : "The email must contain only one '@'."
        case .localTooShort:
            korean ? "아이디(@ 앞부분)는 6자 이상이어야 합니다." : "The part before '@' must be at least 6 characters."
        case .localTooLong:
            korean ? "아이디(@ 앞부분)는 20자 이하여야 합니다." : "The part before '@' must be at most 20 characters."
        case .localUppercase:
            korean
                ? "아이디(@ 앞부분)에는 대문자를 쓸 수 없습니다. 소문자로 입력하세요."
                : "The part before '@' must not contain uppercase letters; use lowercase."
        case .localInvalidCharacter:
            korean
                ? "아이디(@ 앞부분)에는 영문 소문자(a-z)와 숫자(0-9)만 쓸 수 있습니다."
                : "The part before '@' may contain only lowercase letters a-z and digits 0-9."
        case .localStartsWithDigit:
            korean ? "아이디(@ 앞부분)는 숫자로 시작할 수 없습니다." : "The part before '@' must not start with a digit."
        case .domainNotASCII:
            korean ? "도메인(@ 뒷부분)은 ASCII 문자만 쓸 수 있습니다." : "The domain (after '@') must be ASCII."
        case .domainInvalidCharacter:
            korean
                ? "도메인에는 영문자, 숫자, '-', '.'만 쓸 수 있습니다."
                : "The domain may contain only letters, digits, '-' and '.'."
        case .domainEmptyLabel:
            korean
                ? "도메인에 빈 부분이 있습니다 (점이 연속되거나 처음/끝에 있음)."
                : "The domain has an empty label (a leading, trailing or doubled dot)."
        case .domainLabelHyphen:
            korean ? "도메인의 각 부분은 '-'로 시작하거나 끝날 수 없습니다." : "A domain label must not start or end with '-'."
        case .domainLabelTooLong:
            korean ? "도메인의 각 부분은 63자 이하여야 합니다." : "A domain label must be at most 63 characters."
        case .domainTooLong:
            korean ? "도메인은 253자 이하여야 합니다." : "The domain must be at most 253 characters."
        case .domainSingleLabel:
            korean
                ? "도메인은 점으로 구분된 두 부분 이상이어야 합니다 (예: example.com)."
                : "The domain needs at least two labels, like example.com."
        case .domainBadTopLevel:
            korean
                ? "최상위 도메인은 2자 이상의 영문자여야 합니다."
                : "The top-level domain must be at least 2 letters."
        case .notUTF8:
            korean
                ? "이메일이 올바른 UTF-8이 아닙니다 (깨진 바이트가 있습니다). 단말기나 파일의 인코딩을 UTF-8로 맞추세요."
                : "The email is not valid UTF-8 (it has broken bytes); set the terminal's or file's encoding to UTF-8."
        case .localMalformed:
            korean
                ? "@ 앞부분은 1–64자의 영문자, 숫자, !#$%&'*+/=?^_`{|}~- 와 그 사이의 점 하나씩이어야 합니다."
                : "The part before '@' must be 1–64 letters, digits or !#$%&'*+/=?^_`{|}~- with single dots between them."
        case .notNormalized:
            korean
                ? "이메일이 정규화된 형태가 아닙니다 (앞뒤 공백 없이, 도메인은 소문자)."
                : "The email is not in its normalized form (no surrounding space, the domain in lowercase)."
        }
    }

    private static func password(_ rule: PasswordRule, minimum: Int, maximum: Int, korean: Bool) -> String {
        switch rule {
        case .tooShort:
            korean ? "비밀번호는 \(minimum)자 이상이어야 합니다." : "The password must be at least \(minimum) characters."
        case .tooLong:
            korean ? "비밀번호는 \(maximum)자 이하여야 합니다." : "The password must be at most \(maximum) characters."
        case .containsEmail:
            korean ? "비밀번호에 아이디(@ 앞부분)를 포함할 수 없습니다." : "The password must not contain the part of the email before '@'."
        case .containsNickname:
            korean ? "비밀번호에 닉네임을 포함할 수 없습니다." : "The password must not contain the nickname."
        case .sameAsCurrent:
            korean ? "새 비밀번호는 현재 비밀번호와 달라야 합니다." : "The new password must differ from the current one."
        case .notUTF8:
            korean
                ? "비밀번호가 올바른 UTF-8이 아닙니다 (깨진 바이트가 있습니다). 단말기나 파일의 인코딩을 UTF-8로 맞추세요."
                : "The password is not valid UTF-8 (it has broken bytes); set the terminal's or file's encoding to UTF-8."
        case .containsNUL:
            korean ? "비밀번호에 NUL 문자(\\0)를 쓸 수 없습니다." : "The password must not contain the NUL character (\\0)."
        }
    }

    private static func nickname(_ rule: NicknameRule, korean: Bool) -> String {
        switch rule {
        case .tooShort:
            korean ? "닉네임은 2자 이상이어야 합니다." : "The nickname must be at least 2 characters."
        case .tooLong:
            korean ? "닉네임은 20자 이하여야 합니다." : "The nickname must be at most 20 characters."
        case .controlCharacter:
            korean
                ? "닉네임에는 제어 문자, 서식 문자, 줄바꿈을 쓸 수 없습니다."
                : "The nickname must not contain control or format characters or line breaks."
        case .notUTF8:
            korean
                ? "닉네임이 올바른 UTF-8이 아닙니다 (깨진 바이트가 있습니다). 단말기나 파일의 인코딩을 UTF-8로 맞추세요."
                : "The nickname is not valid UTF-8 (it has broken bytes); set the terminal's or file's encoding to UTF-8."
        case .notNormalized:
            korean
                ? "닉네임이 정규화된 형태가 아닙니다 (앞뒤 공백 없이, 유니코드 NFC)."
                : "The nickname is not in its normalized form (no surrounding space, Unicode NFC)."
        }
    }
}
