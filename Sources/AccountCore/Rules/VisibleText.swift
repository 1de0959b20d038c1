/// Text safe to print on an operator's terminal: every control, format or separator character
/// a nickname may not hold (``Nickname``'s rule) is written as `\u{…}`. A hand-edited or
/// imported store can hold such text; printed raw, an escape sequence would recolour, retitle
/// or rewrite the operator's terminal, and a bidirectional override would hide what follows.
public enum VisibleText {
    /// The characters a printed line keeps as they are: the line breaks and tabs a program's
    /// own output is laid out with (a record's fields are escaped whole before that).
    public static let layout: Set<Character> = ["\n", "\t"]

    /// `text` with each hidden character escaped as `\u{1B}`, except the characters in `kept`.
    public static func escaping(_ text: String, keeping kept: Set<Character> = []) -> String {
        // Most text is printable ASCII, which needs no look at Unicode properties.
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || kept.contains(Character(Unicode.Scalar($0))) }) {
            return text
        }
        var visible = ""
        for character in text {
            guard !kept.contains(character) else {
                visible.append(character)
                continue
            }
            for scalar in character.unicodeScalars {
                if Nickname.isHidden(scalar, in: character) {
                    visible += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    visible.unicodeScalars.append(scalar)
                }
            }
        }
        return visible
    }
}
