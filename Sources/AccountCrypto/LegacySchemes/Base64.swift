import Foundation

/// Base64 as the modular hash strings write it.
public enum Base64 {
    /// Standard base64 without `=` padding (Kratos's and PHC's form).
    public static func unpadded(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Standard base64, padded or not, in its one canonical spelling: nil for anything else,
    /// including text whose last character carries bits no encoder sets (a field cut short
    /// decodes to nothing rather than to fewer bytes).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var unpaddedText = Substring(text)
        if unpaddedText.hasSuffix("==") {
            unpaddedText = unpaddedText.dropLast(2)
        } else if unpaddedText.hasSuffix("=") {
            unpaddedText = unpaddedText.dropLast()
        }
        let padded = String(unpaddedText) + String(repeating: "=", count: (4 - unpaddedText.utf8.count % 4) % 4)
        guard padded.utf8.count == text.utf8.count || unpaddedText.utf8.count == text.utf8.count,
            let data = Data(base64Encoded: padded)
        else { return nil }
        let bytes = Array(data)
        return unpadded(bytes) == unpaddedText ? bytes : nil
    }
}
