/// A sign-up ID: an email address that passed every rule of the sign-up form.
///
/// Rules: surrounding white space is trimmed; exactly one `@`; the local part is 6–20 characters
/// of `a-z` and `0-9` and does not start with a digit (uppercase is rejected, not folded); the
/// domain is ASCII, folded to lowercase, two or more dot-separated labels of `a-z0-9-` with no
/// leading or trailing `-`, the last label alphabetic with at least 2 letters (or an
/// internationalized top-level domain's A-label, `xn--…`).
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The part before `@`, as typed (it is already lowercase).
    public let localPart: String
    /// The domain, lowercased.
    public let domain: String

    /// The unique key a backend stores: `local@lowercased-domain`.
    public var normalized: String { "\(localPart)@\(domain)" }

    public var description: String { normalized }

    /// The shortest and longest local part allowed.
    public static let localPartLength = 6...20

    /// Validates `input` and returns the normalized address, or throws `AccountError.invalidEmail`
    /// naming the first rule broken (`brokenRules(in:)` lists them all).
    public init(_ input: String) throws(AccountError) {
        if let first = Self.brokenRules(in: input).first { throw .invalidEmail(first) }
        let trimmed = input.trimmingWhitespace()
        let at = trimmed.firstIndex(of: "@")!
        localPart = String(trimmed[..<at])
        domain = trimmed[trimmed.index(after: at)...].lowercased()
    }

    /// Every rule `input` breaks, in the order a reader would fix them (empty when it is valid),
    /// so a form can list them all at once instead of one per try.
    ///
    /// Without an `@` the part before it cannot be told from the domain (`leesoon7example.com`
    /// most likely lacks it before `example`), so only the rules that hold wherever it goes are
    /// checked: it is missing, and the first character, which starts the part before it, must
    /// not be a digit. With several, the part before the first `@` is checked.
    public static func brokenRules(in input: String) -> [EmailRule] {
        let trimmed = input.trimmingWhitespace()
        guard !trimmed.isEmpty else { return [.empty] }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return [.missingAt] + (startsWithDigit(trimmed) ? [.localStartsWithDigit] : [])
        case 2: return localPartRules(parts[0]) + domainRules(parts[1])
        default: return [.multipleAt] + localPartRules(parts[0])
        }
    }

    private static func localPartRules(_ local: Substring) -> [EmailRule] {
        var broken = RuleList<EmailRule>()
        for scalar in local.unicodeScalars {
            switch scalar {
            case "a"..."z", "0"..."9": continue
            case "A"..."Z": broken.append(.localUppercase)
            default: broken.append(.localInvalidCharacter)
            }
        }
        if startsWithDigit(local) { broken.append(.localStartsWithDigit) }
        let count = local.unicodeScalars.count
        if count < localPartLength.lowerBound { broken.append(.localTooShort) }
        if count > localPartLength.upperBound { broken.append(.localTooLong) }
        return broken.rules
    }

    private static func startsWithDigit(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? false
    }

    static func domainRules(_ raw: Substring) -> [EmailRule] {
        guard raw.unicodeScalars.allSatisfy(\.isASCII) else { return [.domainNotASCII] }
        let domain = raw.lowercased()
        guard !domain.isEmpty else { return [.domainEmptyLabel] }
        var broken = RuleList<EmailRule>()
        if domain.utf8.count > 253 { broken.append(.domainTooLong) }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            if label.isEmpty { broken.append(.domainEmptyLabel) }
            for scalar in label.unicodeScalars {
                switch scalar {
                case "a"..."z", "0"..."9", "-": continue
                default: broken.append(.domainInvalidCharacter)
                }
            }
            if label.hasPrefix("-") || label.hasSuffix("-") { broken.append(.domainLabelHyphen) }
            if label.utf8.count > 63 { broken.append(.domainLabelTooLong) }
        }
        if labels.count < 2 { broken.append(.domainSingleLabel) }
        // The last label is alphabetic, or an internationalized one in its A-label form
        // (`xn--3e0b707e`, 한국), whose characters the label rules above have checked.
        let top = labels[labels.count - 1]
        let alphabetic = top.unicodeScalars.allSatisfy { ("a"..."z").contains($0) }
        if !top.isEmpty, top.count < 2 || !(alphabetic || (top.hasPrefix("xn--") && top.count > 4)) {
            broken.append(.domainBadTopLevel)
        }
        return broken.rules
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space or newlines (Unicode's definition),
    /// as the rules trim what is typed.
    func trimmingWhitespace() -> String {
        let isTrimmed = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !isTrimmed($0) })!
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[start...end])
        return result
    }
}
