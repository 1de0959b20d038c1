public import AccountCore
import CSodium

/// A secret key that signs short messages with HMAC-SHA-256 (libsodium's
/// `crypto_auth_hmacsha256`): what the server signs its device tokens and form tokens with, so
/// that nobody without the key can make one it accepts.
public struct HMACKey: Sendable {
    /// The key's length in bytes.
    public static let byteCount = 32
    private let bytes: [UInt8]

    /// The key made of `bytes`; `nil` unless there are exactly ``byteCount`` of them.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        Sodium.ensureInitialized()
        self.bytes = bytes
    }

    /// A new key from `random` (the system's CSPRNG by default).
    public static func random(using random: any RandomSource = SodiumRandomSource()) -> HMACKey {
        HMACKey(bytes: random.bytes(byteCount))!
    }

    /// The signature of `message`, as 64 lowercase hex digits.
    public func signature(of message: String) -> String {
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        let text = Array(message.utf8)
        mac.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { key in
                _ = crypto_auth_hmacsha256(out.baseAddress!, text, UInt64(text.count), key.baseAddress!)
            }
        }
        return Hex.encode(mac)
    }

    /// Whether `signature` is `message`'s, compared in time that does not depend on where they
    /// differ.
    public func isSignature(_ signature: String, of message: String) -> Bool {
        guard let given = Hex.decode(signature), given.count == Int(crypto_auth_hmacsha256_BYTES),
            let expected = Hex.decode(self.signature(of: message))
        else { return false }
        return ConstantTime.equal(given, expected)
    }
}
