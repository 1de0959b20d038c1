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
    public func validate(
        password: String,
        confirmation: String?,
        email: String,
        nickname: String,
        estimator: some PasswordStrengthEstimator
    ) throws(AccountError) -> String {
        let normalized = try validateAlone(password)
        let folded = normalized.lowercased()
        let localPart = email.split(separator: "@", maxSplits: 1).first.map(String.init) ?? email
        let domain = email.split(separator: "@", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        if !localPart.isEmpty, folded.contains(localPart.lowercased()) {
            throw .invalidPassword(.containsEmail, minimum: minimumLength, maximum: maximumLength)
        }
        if !nickname.isEmpty, folded.contains(nickname.lowercased()) {
            throw .invalidPassword(.containsNickname, minimum: minimumLength, maximum: maximumLength)
        }
        let userWords = [email, localPart, domain, nickname].filter { !$0.isEmpty }
        let log2Guesses = estimator.guessesLog2(normalized, userWords: userWords)
        if log2Guesses < minimumGuessesLog10 * log2(10.0) { throw .weakPassword }
        if let confirmation, Self.normalize(confirmation) != normalized { throw .passwordMismatch }
        return normalized
    }

    /// The length rules alone (for a form that checks each field as it is typed).
    public func validateAlone(_ password: String) throws(AccountError) -> String {
        if password.unicodeScalars.contains("\u{0}") {
            throw .invalidPassword(.containsNUL, minimum: minimumLength, maximum: maximumLength)
        }
        let normalized = Self.normalize(password)
        let length = normalized.unicodeScalars.count
        if length < minimumLength { throw .invalidPassword(.tooShort, minimum: minimumLength, maximum: maximumLength) }
        if length > maximumLength { throw .invalidPassword(.tooLong, minimum: minimumLength, maximum: maximumLength) }
        return normalized
    }
}
