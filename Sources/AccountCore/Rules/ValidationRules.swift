/// Which email rule an input broke; each has its own message.
public enum EmailRule: String, Sendable, Hashable, CaseIterable {
    case empty
    case missingAt
    case multipleAt
    case localTooShort
    case localTooLong
    case localUppercase
    case localInvalidCharacter
    case localStartsWithDigit
    case domainNotASCII
    case domainInvalidCharacter
    case domainEmptyLabel
    case domainLabelHyphen
    case domainLabelTooLong
    case domainTooLong
    case domainSingleLabel
    case domainBadTopLevel
    /// The bytes given are not valid UTF-8 (refused, never repaired: a repaired ID would be
    /// another account's ID than the one typed).
    case notUTF8
    /// A stored account's email (``StoredEmail``): the part before `@` is not 1–64 characters
    /// of an address's dot-atom (letters, digits, the symbols of RFC 5322's `atext` and single
    /// dots between them).
    case localMalformed
    /// A stored email that is not written in its normalized form (no surrounding space, the
    /// domain in lowercase).
    case notNormalized
}

/// Which password rule an input broke.
public enum PasswordRule: String, Sendable, Hashable, CaseIterable {
    case tooShort
    case tooLong
    case containsEmail
    case containsNickname
    /// A new password that is the one it replaces (after normalization).
    case sameAsCurrent
    /// The bytes given are not valid UTF-8 (refused, never repaired: two different byte
    /// strings must never become one password).
    case notUTF8
    /// It contains the NUL character, which C strings and terminals cannot carry.
    case containsNUL
}

/// Which nickname rule an input broke.
public enum NicknameRule: String, Sendable, Hashable, CaseIterable {
    case tooShort
    case tooLong
    case controlCharacter
    /// The bytes given are not valid UTF-8 (refused, never repaired into `�`).
    case notUTF8
    /// A stored nickname that is not written in its normalized form (no surrounding space,
    /// Unicode NFC).
    case notNormalized
}

/// Rules in the order they were first broken, each once (a form lists them all at once).
struct RuleList<Rule: Hashable> {
    private(set) var rules: [Rule] = []

    mutating func append(_ rule: Rule) {
        if !rules.contains(rule) { rules.append(rule) }
    }
}
