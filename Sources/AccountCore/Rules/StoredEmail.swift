import Foundation

/// The email of a stored account, however the account arrived: what login, lookup and every
/// front accept.
///
/// The sign-up ID rule (``EmailAddress``) governs new sign-ups only. An account moved in from
/// another system keeps its address when it is well formed (`john.doe@gmail.com`): the part
/// before `@` is 1–64 characters of an address's dot-atom (`a-z`, `0-9`, the symbols of RFC
/// 5322's `atext` such as `+`, `'` and `_`, single dots between them), kept in lowercase, and
/// the domain follows the same rules as a sign-up ID's once in ASCII (a Unicode domain is kept
/// in its `xn--` form). Every sign-up ID is a stored email.
public struct StoredEmail: Sendable, Hashable, CustomStringConvertible {
    /// The unique key a backend stores: `local@lowercased-domain`.
    public let normalized: String

    public var description: String { normalized }

    /// The longest part before `@` (RFC 5321).
    public static let localPartMaximum = 64

    /// Validates `input` and returns the normalized address — white space trimmed, the part
    /// before `@` in lowercase, the domain in lowercase ASCII (a Unicode domain in its IDNA
    /// A-label form) — or throws `AccountError.invalidEmail` naming the first rule broken. Any
    /// spelling a person types of a stored address finds it: imports store every address in
    /// lowercase, and no stored address has an uppercase letter.
    public init(_ input: String) throws(AccountError) {
        if let first = Self.brokenRules(in: input).first { throw .invalidEmail(first) }
        normalized = Self.folded(input)!
    }

    /// `input` trimmed, its local part lowercased and its domain in lowercase ASCII, or nil
    /// when it has not exactly one `@` or its domain has no ASCII form.
    private static func folded(_ input: String) -> String? {
        let trimmed = input.trimmingWhitespace()
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let domain = asciiDomain(parts[1]) else { return nil }
        return parts[0].lowercased() + "@" + domain
    }

    /// The label separators IDNA maps to `.` (UTS #46): the ideographic and full-width stops.
    private static let labelSeparators: Set<Character> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]

    /// `domain` in lowercase ASCII: each label lowercased and in NFC, a label that is not ASCII
    /// in its Punycode A-label form (`xn--…`); nil when a label cannot be encoded.
    static func asciiDomain(_ domain: Substring) -> String? {
        // An ASCII domain is its own NFC and A-label form, and its separators are all `.`.
        if domain.utf8.allSatisfy({ $0 < 0x80 }) { return domain.lowercased() }
        var labels: [String] = []
        for label in domain.split(omittingEmptySubsequences: false, whereSeparator: labelSeparators.contains) {
            guard let ascii = Punycode.asciiLabel(label.lowercased().precomposedStringWithCanonicalMapping) else {
                return nil
            }
            labels.append(ascii)
        }
        return labels.joined(separator: ".")
    }

    /// Every rule `input` breaks as a stored email (empty when it is one), checked on its folded
    /// form: any case, a Unicode domain through its ASCII form.
    public static func brokenRules(in input: String) -> [EmailRule] {
        let trimmed = input.trimmingWhitespace()
        guard !trimmed.isEmpty else { return [.empty] }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return [.missingAt]
        case 2:
            guard let domain = asciiDomain(parts[1]) else {
                return localPartRules(Substring(parts[0].lowercased())) + [.domainInvalidCharacter]
            }
            return localPartRules(Substring(parts[0].lowercased())) + EmailAddress.domainRules(Substring(domain))
        default: return [.multipleAt]
        }
    }

    /// The rules a stored record's `email` breaks: those of ``brokenRules(in:)``, and
    /// `notNormalized` when it is not written exactly as its normalized form.
    public static func brokenRules(ofStored email: String) -> [EmailRule] {
        let broken = brokenRules(in: email)
        guard broken.isEmpty else { return broken }
        return folded(email) == email ? [] : [.notNormalized]
    }

    /// The characters of a dot-atom besides letters, digits and the dot (RFC 5322 `atext`).
    private static let atomSymbols = Set("!#$%&'*+/=?^_`{|}~-".unicodeScalars)

    private static func localPartRules(_ local: Substring) -> [EmailRule] {
        var broken = RuleList<EmailRule>()
        let scalars = Array(local.unicodeScalars)
        for scalar in scalars {
            switch scalar {
            case "a"..."z", "0"..."9", ".": continue
            default: if !atomSymbols.contains(scalar) { broken.append(.localMalformed) }
            }
        }
        let dotsMisplaced = scalars.first == "." || scalars.last == "." || local.contains("..")
        if scalars.isEmpty || scalars.count > localPartMaximum || dotsMisplaced { broken.append(.localMalformed) }
        return broken.rules
    }
}
