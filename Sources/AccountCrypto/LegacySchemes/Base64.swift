import Foundation

/// Base64 as the modular hash strings write it.
public enum Base64 {
    /// Standard base64 without `=` padding (Kratos's and PHC's form).
    public static func unpadded(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Standard base64, padded or not (nil for anything else).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var padded = String(text)
        padded += String(repeating: "=", count: (4 - padded.utf8.count % 4) % 4)
        return Data(base64Encoded: padded).map(Array.init)
    }
}
