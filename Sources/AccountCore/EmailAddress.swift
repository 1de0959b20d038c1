/// A sign-up ID: an email address that passed every rule of the sign-up form.
///
/// Rules: surrounding white space is trimmed; exactly one `@`; the local part is 6–20 characters
/// of `a-z` and `0-9` and does not start with a digit (uppercase is rejected, not folded); the
/// domain is ASCII, folded to lowercase, two or more dot-separated labels of `a-z0-9-` with no
/// leading or trailing `-`, the last label alphabetic with at least 2 letters.
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
    /// naming the first rule broken.
    public init(_ input: String) throws(AccountError) {
        let trimmed = input.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .invalidEmail(.empty) }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { throw .invalidEmail(.missingAt) }
        guard parts.count == 2 else { throw .invalidEmail(.multipleAt) }
        localPart = try Self.validateLocalPart(parts[0])
        domain = try Self.validateDomain(parts[1])
    }

    private static func validateLocalPart(_ local: Substring) throws(AccountError) -> String {
        for scalar in local.unicodeScalars {
            switch scalar {
            case "a"..."z", "0"..."9": continue
            case "A"..."Z": throw .invalidEmail(.localUppercase)
            default: throw .invalidEmail(.localInvalidCharacter)
            }
        }
        if let first = local.unicodeScalars.first, ("0"..."9").contains(first) {
            throw .invalidEmail(.localStartsWithDigit)
        }
        let count = local.unicodeScalars.count
        if count < localPartLength.lowerBound { throw .invalidEmail(.localTooShort) }
        if count > localPartLength.upperBound { throw .invalidEmail(.localTooLong) }
        return String(local)
    }

    private static func validateDomain(_ raw: Substring) throws(AccountError) -> String {
        guard raw.unicodeScalars.allSatisfy(\.isASCII) else { throw .invalidEmail(.domainNotASCII) }
        let domain = raw.lowercased()
        guard !domain.isEmpty else { throw .invalidEmail(.domainEmptyLabel) }
        guard domain.utf8.count <= 253 else { throw .invalidEmail(.domainTooLong) }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty else { throw .invalidEmail(.domainEmptyLabel) }
            for scalar in label.unicodeScalars {
                switch scalar {
                case "a"..."z", "0"..."9", "-": continue
                default: throw .invalidEmail(.domainInvalidCharacter)
                }
            }
            if label.hasPrefix("-") || label.hasSuffix("-") { throw .invalidEmail(.domainLabelHyphen) }
            if label.utf8.count > 63 { throw .invalidEmail(.domainLabelTooLong) }
        }
        guard labels.count >= 2 else { throw .invalidEmail(.domainSingleLabel) }
        let top = labels[labels.count - 1]
        guard top.count >= 2, top.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }) else {
            throw .invalidEmail(.domainBadTopLevel)
        }
        return domain
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space or newlines (Unicode's definition).
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[start...end])
        return result
    }
}
