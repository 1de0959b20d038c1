/// The email of a stored account, however the account arrived: what login, lookup and every
/// front accept.
///
/// The sign-up ID rule (``EmailAddress``) governs new sign-ups only. An account moved in from
/// another system keeps its address when it is well formed (`john.doe@gmail.com`): the part
/// before `@` is 1–64 characters of an address's dot-atom (`a-z`, `0-9`, the symbols of RFC
/// 5322's `atext` such as `+`, `'` and `_`, single dots between them), lowercase, and the domain follows the
/// same rules as a sign-up ID's. Every sign-up ID is a stored email.
public struct StoredEmail: Sendable, Hashable, CustomStringConvertible {
    /// The unique key a backend stores: `local@lowercased-domain`.
    public let normalized: String

    public var description: String { normalized }

    /// The longest part before `@` (RFC 5321).
    public static let localPartMaximum = 64

    /// Validates `input` (surrounding white space trimmed, the domain folded to lowercase) and
    /// returns the normalized address, or throws `AccountError.invalidEmail` naming the first
    /// rule broken.
    public init(_ input: String) throws(AccountError) {
        if let first = Self.brokenRules(in: input).first { throw .invalidEmail(first) }
        let trimmed = input.trimmingWhitespace()
        let at = trimmed.firstIndex(of: "@")!
        normalized = String(trimmed[..<at]) + "@" + trimmed[trimmed.index(after: at)...].lowercased()
    }

    /// Every rule `input` breaks as a stored email (empty when it is one).
    public static func brokenRules(in input: String) -> [EmailRule] {
        let trimmed = input.trimmingWhitespace()
        guard !trimmed.isEmpty else { return [.empty] }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return [.missingAt]
        case 2: return localPartRules(parts[0]) + EmailAddress.domainRules(parts[1])
        default: return [.multipleAt]
        }
    }

    /// The rules a stored record's `email` breaks: those of ``brokenRules(in:)``, and
    /// `notNormalized` when it is not written exactly as its normalized form.
    public static func brokenRules(ofStored email: String) -> [EmailRule] {
        let broken = brokenRules(in: email)
        guard broken.isEmpty else { return broken }
        return (try? StoredEmail(email).normalized) == email ? [] : [.notNormalized]
    }

    /// The characters of a dot-atom besides letters, digits and the dot (RFC 5322 `atext`).
    private static let atomSymbols = Set("!#$%&'*+/=?^_`{|}~-".unicodeScalars)

    private static func localPartRules(_ local: Substring) -> [EmailRule] {
        var broken = RuleList<EmailRule>()
        let scalars = Array(local.unicodeScalars)
        for scalar in scalars {
            switch scalar {
            case "a"..."z", "0"..."9", ".": continue
            case "A"..."Z": broken.append(.localUppercase)
            default: if !atomSymbols.contains(scalar) { broken.append(.localMalformed) }
            }
        }
        let dotsMisplaced = scalars.first == "." || scalars.last == "." || local.contains("..")
        if scalars.isEmpty || scalars.count > localPartMaximum || dotsMisplaced { broken.append(.localMalformed) }
        return broken.rules
    }
}
