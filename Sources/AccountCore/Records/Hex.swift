/// Lowercase hexadecimal encoding, the form ids, token digests and store ids take.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lowercase hexadecimal.
    public static func encode(_ bytes: [UInt8]) -> String {
        // An array rather than any sequence: a generic called from another module runs
        // unspecialized, and every signed-in request encodes its token's digest here.
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            for (index, byte) in bytes.enumerated() {
                text[2 * index] = digits[Int(byte >> 4)]
                text[2 * index + 1] = digits[Int(byte & 0x0f)]
            }
            return bytes.count * 2
        }
    }

    /// Decodes lowercase or uppercase hexadecimal; `nil` when the text is not hex of even length.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Whether `text` is exactly `byteCount` bytes of lowercase hex.
    public static func isLowercaseHex(_ text: String, byteCount: Int) -> Bool {
        text.utf8.count == byteCount * 2
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The value of one hexadecimal digit, lowercase or uppercase; `nil` for any other byte.
    public static func value(_ char: UInt8) -> UInt8? {
        switch char {
        case 0x30...0x39: char - 0x30
        case 0x61...0x66: char - 0x61 + 10
        case 0x41...0x46: char - 0x41 + 10
        default: nil
        }
    }
}
