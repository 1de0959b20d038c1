import AccountBackendKit
import AccountCore

/// `password.…`: the password rules (``PasswordPolicy``, whose defaults are these keys').
enum PasswordSection {
    static func read(_ reader: SectionReader) throws(AccountError) -> PasswordPolicy {
        let defaults = PasswordPolicy()
        let minimumLength = try reader.value(
            .integer(
                "min_length", in: PasswordPolicy.absoluteMinimumLength...defaults.maximumLength,
                default: defaults.minimumLength,
                summary: "fewest characters (Unicode scalars after NFKC) in a password; never below 8"))
        let minimumGuessesLog10 = try reader.value(
            .integer(
                "min_guesses_log10", in: 0...30, default: Int(defaults.minimumGuessesLog10),
                summary: "reject passwords zxcvbn cracks in fewer than 10^this guesses"))
        return PasswordPolicy(minimumLength: minimumLength, minimumGuessesLog10: Double(minimumGuessesLog10))
    }
}
