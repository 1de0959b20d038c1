import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// Estimates how many guesses a password would take to crack; implemented over zxcvbn.
public protocol PasswordStrengthEstimator: Sendable {
    /// log₂ of the estimated guesses, with `userWords` (email, nickname) counted as known.
    func guessesLog2(_ password: String, userWords: [String]) -> Double
}

/// The sign-up form's password rules.
///
/// The password is NFKC-normalized, so that visually identical inputs hash alike; length is
/// counted in Unicode scalars; there are no composition rules, only a strength floor estimated
/// by zxcvbn and a ban on containing the email's local part or the nickname.
public struct PasswordPolicy: Sendable, Hashable {
    /// The fewest scalars allowed (never below 8).
    public let minimumLength: Int
    /// The most scalars allowed.
    public let maximumLength: Int
    /// Passwords estimated to fall in fewer than 10^this guesses are rejected.
    public let minimumGuessesLog10: Double

    /// The hard floor for `minimumLength`.
    public static let absoluteMinimumLength = 8

    /// Creates a policy; `minimumLength` is raised to 8 if lower.
    public init(minimumLength: Int = 8, maximumLength: Int = 128, minimumGuessesLog10: Double = 6) {
        self.minimumLength = max(Self.absoluteMinimumLength, minimumLength)
        self.maximumLength = max(self.minimumLength, maximumLength)
        self.minimumGuessesLog10 = minimumGuessesLog10
    }

    /// The form every password is hashed and compared in.
    public static func normalize(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }

    /// Checks a new password (and its confirmation) for the account with this normalized email
    /// and nickname; returns the normalized password to hash, or throws the first rule broken.
    /// `current`, when given, is the password being replaced: the new one must differ from it.
    public func validate(
        password: String,
        confirmation: String?,
        email: String,
        nickname: String,
        current: String? = nil,
        estimator: some PasswordStrengthEstimator
    ) throws(AccountError) -> String {
        let broken = problems(
            password: password, email: email, nickname: nickname, current: current, estimator: estimator)
        if let first = broken.first { throw first }
        let normalized = Self.normalize(password)
        if let confirmation, Self.normalize(confirmation) != normalized { throw .passwordMismatch }
        return normalized
    }

    /// Every rule `password` breaks, as the errors `validate` would throw one at a time (empty
    /// when it is acceptable), so a form can list them all at once. Pass an empty `email` or
    /// `nickname` when that field is not known yet.
    public func problems(
        password: String,
        email: String,
        nickname: String,
        current: String? = nil,
        estimator: some PasswordStrengthEstimator
    ) -> [AccountError] {
        if password.unicodeScalars.contains("\u{0}") {
            return [.invalidPassword(.containsNUL, minimum: minimumLength, maximum: maximumLength)]
        }
        var broken: [PasswordRule] = []
        let normalized = Self.normalize(password)
        let length = normalized.unicodeScalars.count
        if length < minimumLength { broken.append(.tooShort) }
        if length > maximumLength { broken.append(.tooLong) }
        let folded = normalized.lowercased()
        let localPart = email.split(separator: "@", maxSplits: 1).first.map(String.init) ?? email
        let domain = email.split(separator: "@", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        if !localPart.isEmpty, folded.contains(localPart.lowercased()) { broken.append(.containsEmail) }
        if !nickname.isEmpty, folded.contains(nickname.lowercased()) { broken.append(.containsNickname) }
        if let current, Self.normalize(current) == normalized { broken.append(.sameAsCurrent) }
        var errors = broken.map { AccountError.invalidPassword($0, minimum: minimumLength, maximum: maximumLength) }
        let userWords = [email, localPart, domain, nickname].filter { !$0.isEmpty }
        if estimator.guessesLog2(normalized, userWords: userWords) < minimumGuessesLog10 * log2(10.0) {
            errors.append(.weakPassword)
        }
        return errors
    }
}
