extension String {
    /// The columns a terminal gives the text: two for each wide character (Hangul, CJK,
    /// full-width forms), one for any other, so that Korean values line up in a table.
    var terminalColumns: Int {
        unicodeScalars.reduce(0) { columns, scalar in columns + (Self.isWide(scalar.value) ? 2 : 1) }
    }

    /// The text padded with spaces to `width` columns (unchanged when it is already as wide).
    func padding(_ width: Int) -> String {
        let columns = terminalColumns
        return columns >= width ? self : self + String(repeating: " ", count: width - columns)
    }

    /// The text broken into lines of at most `width` columns at spaces, never inside a word
    /// (Korean is written with spaces between words too); a word wider than `width` gets a line
    /// of its own. The first line keeps the text's own indent; the others start with
    /// `continuation`.
    func wrapped(toColumns width: Int, continuation: String) -> [String] {
        guard terminalColumns > width else { return [self] }
        let indent = String(prefix { $0 == " " })
        var lines: [String] = []
        var line = indent
        var lineIsEmpty = true
        for word in dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: true) {
            let word = String(word)
            if !lineIsEmpty, line.terminalColumns + 1 + word.terminalColumns > width {
                lines.append(line)
                line = continuation
                lineIsEmpty = true
            }
            line += (lineIsEmpty ? "" : " ") + word
            lineIsEmpty = false
        }
        lines.append(line)
        return lines
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's UAX #11), the ones text here can hold.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
