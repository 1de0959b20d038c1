import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// A display name that passed the sign-up rules: trimmed, NFC-normalized, 2–20 grapheme
/// clusters, and free of control characters, format characters and line breaks.
///
/// Emoji sequences keep their zero-width joiners and tag characters, which Unicode classes as
/// format characters but which belong inside one emoji.
public struct Nickname: Sendable, Hashable, CustomStringConvertible {
    /// The normalized nickname.
    public let value: String

    public var description: String { value }

    /// The allowed length in grapheme clusters.
    public static let length = 2...20

    /// Validates `input`, or throws `AccountError.invalidNickname` naming the first rule broken
    /// (`brokenRules(in:)` lists them all).
    public init(_ input: String) throws(AccountError) {
        if let first = Self.brokenRules(in: input).first { throw .invalidNickname(first) }
        value = Self.normalize(input)
    }

    /// Every rule `input` breaks (empty when it is valid).
    public static func brokenRules(in input: String) -> [NicknameRule] {
        let normalized = normalize(input)
        var broken = RuleList<NicknameRule>()
        if !normalized.allSatisfy(Self.isAllowed) { broken.append(.controlCharacter) }
        let count = normalized.count
        if count < length.lowerBound { broken.append(.tooShort) }
        if count > length.upperBound { broken.append(.tooLong) }
        return broken.rules
    }

    /// `input` as a nickname is stored: trimmed and NFC-normalized (the rules are checked on
    /// this form).
    public static func normalize(_ input: String) -> String {
        input.trimmingWhitespace().precomposedStringWithCanonicalMapping
    }

    private static func isAllowed(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { !isHidden($0, in: character) }
    }

    /// Whether `scalar` of `character` is a control, format or separator character a nickname
    /// may not hold (what a terminal would act on, or a reader not see); `VisibleText` escapes
    /// the same ones.
    static func isHidden(_ scalar: Unicode.Scalar, in character: Character) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return true
        case .format:
            // ZWJ and emoji tag characters are part of an emoji, not a hidden control.
            let isEmoji = character.unicodeScalars.contains {
                $0.properties.isEmojiPresentation || $0.properties.isEmoji && $0.value > 0xFF
            }
            let joinsEmoji = scalar.value == 0x200D || (0xE0020...0xE007F).contains(scalar.value)
            return !(isEmoji && joinsEmoji && character.unicodeScalars.count > 1)
        default:
            return false
        }
    }
}
