/// Every rule each field of a form breaks, for a front end that checks fields as they are typed
/// (the answers of `AccountService.signUpProblems` and `newPasswordProblems`). The same rules
/// the service enforces on submit; the duplicate ID is not among them (only a submit tells).
public struct FormCheck<Field: CaseIterable & Hashable & Sendable>: Sendable {
    /// The broken rules by field; a field that breaks none is absent.
    public private(set) var problems: [Field: [AccountError]] = [:]

    /// No field breaks a rule.
    public var isValid: Bool { problems.isEmpty }

    /// The rules `field` breaks, in the order a reader would fix them.
    public subscript(field: Field) -> [AccountError] { problems[field] ?? [] }

    /// Every broken rule with its field, field by field in the form's order.
    public var brokenRules: [(field: Field, error: AccountError)] {
        Field.allCases.flatMap { field in self[field].map { (field, $0) } }
    }

    mutating func add(_ errors: [AccountError], to field: Field) {
        if !errors.isEmpty { problems[field, default: []] += errors }
    }

    /// This check with each of `fields` refused as not UTF-8 (`error(field)`), and only that:
    /// a front that could not read a field's bytes as UTF-8 checked a repaired stand-in, whose
    /// other findings say nothing true about what was sent.
    public func refusingBrokenEncoding(of fields: some Sequence<Field>, _ error: (Field) -> AccountError) -> Self {
        var check = self
        for field in fields { check.problems[field] = [error(field)] }
        return check
    }
}

/// The fields of the sign-up form.
public enum SignUpField: String, Sendable, Hashable, CaseIterable {
    case email, nickname, password, confirmation
}

/// The fields of the change-password form that have rules (the current password has none).
public enum NewPasswordField: String, Sendable, Hashable, CaseIterable {
    case newPassword, confirmation
}

extension SignUpField {
    /// Each field's name in the native API's requests and in the CLI's `--json` answers.
    public static let jsonNames: [SignUpField: String] = [
        .email: "email", .nickname: "nickname", .password: "password", .confirmation: "confirmation",
    ]

    /// The field's error for bytes that are not UTF-8: its own code (`invalid_email`,
    /// `invalid_nickname`, `invalid_password`), as for any other rule it breaks.
    public var notUTF8: AccountError {
        switch self {
        case .email: .invalidEmail(.notUTF8)
        case .nickname: .invalidNickname(.notUTF8)
        case .password, .confirmation: .invalidPassword(.notUTF8)
        }
    }
}

extension NewPasswordField {
    /// Each field's name in the native API's requests and in the CLI's `--json` answers.
    public static let jsonNames: [NewPasswordField: String] = [
        .newPassword: "new_password", .confirmation: "confirmation",
    ]
}

extension FormCheck where Field == SignUpField {
    /// The rules the sign-up form's ID and nickname break, which need no service: a front end
    /// can check them before it asks for the password.
    public static func signUpIdentity(email: String, nickname: String) -> Self {
        var check = Self()
        check.add(EmailAddress.brokenRules(in: email).map(AccountError.invalidEmail), to: .email)
        check.add(Nickname.brokenRules(in: nickname).map(AccountError.invalidNickname), to: .nickname)
        return check
    }
}

extension FormCheck where Field == SignUpField {
    /// The rules a sign-up form's fields break as typed, under `policy`. The password is checked
    /// against the ID and nickname as typed (trimmed; the ID in lowercase, the nickname in NFC),
    /// valid or not, once they are as long as their rules' minimum, so one answer lists what the
    /// password breaks too, not only after the ID is fixed. An empty field is reported as such.
    public static func signUp(
        email: String, nickname: String, password: String, confirmation: String, policy: PasswordPolicy,
        estimator: some PasswordStrengthEstimator
    ) -> Self {
        var check = signUpIdentity(email: email, nickname: nickname)
        // Only a part long enough to be one: a password is not refused for holding the "a" of a
        // half-typed ID.
        let typedEmail = email.trimmingWhitespace().lowercased()
        let typedLocalPart = typedEmail.split(separator: "@", maxSplits: 1).first ?? ""
        let typedNickname = Nickname.normalize(nickname)
        check.add(
            policy.problems(
                password: password,
                email: typedLocalPart.count >= EmailAddress.localPartLength.lowerBound ? typedEmail : "",
                nickname: typedNickname.count >= Nickname.length.lowerBound ? typedNickname : "", estimator: estimator),
            to: .password)
        check.add(confirmationProblems(password, confirmation), to: .confirmation)
        return check
    }
}

extension FormCheck {
    /// The confirmation's rule: it matches the password (both in their normalized form) and is
    /// not empty.
    static func confirmationProblems(_ password: String, _ confirmation: String) -> [AccountError] {
        PasswordPolicy.normalize(password) == PasswordPolicy.normalize(confirmation) && !confirmation.isEmpty
            ? [] : [.passwordMismatch]
    }
}

extension AccountService {
    /// The rules a sign-up form's fields break as typed, under this service's password policy
    /// (``FormCheck/signUp(email:nickname:password:confirmation:policy:estimator:)``).
    public func signUpProblems(
        email: String, nickname: String, password: String, confirmation: String
    ) -> FormCheck<SignUpField> {
        .signUp(
            email: email, nickname: nickname, password: password, confirmation: confirmation, policy: passwordPolicy,
            estimator: strength)
    }

    /// The rules a new password (and its confirmation) breaks for `profile`'s account; it must
    /// also differ from `current` when that is given.
    public func newPasswordProblems(
        for profile: AccountProfile, current: String?, newPassword: String, confirmation: String
    ) -> FormCheck<NewPasswordField> {
        var check = FormCheck<NewPasswordField>()
        check.add(
            passwordPolicy.problems(
                password: newPassword, email: profile.email, nickname: profile.nickname,
                current: current.flatMap { $0.isEmpty ? nil : $0 }, estimator: strength),
            to: .newPassword)
        check.add(FormCheck<NewPasswordField>.confirmationProblems(newPassword, confirmation), to: .confirmation)
        return check
    }
}
