import AccountCore

/// A wrong password where no email was asked (`passwd`, `withdraw`): the code stays
/// `invalid_credentials`, but the message does not mention an email the person never typed.
struct WrongPassword: CommandFailure {
    let current: Bool

    var code: String { "invalid_credentials" }
    var exitStatus: Int32 { ExitStatus.invalidCredentials }

    func message(_ language: Language) -> String {
        switch (language == .korean, current) {
        case (true, true): "현재 비밀번호가 올바르지 않습니다."
        case (true, false): "비밀번호가 올바르지 않습니다."
        case (false, true): "The current password is incorrect."
        case (false, false): "The password is incorrect."
        }
    }
}
