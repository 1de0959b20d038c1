public import AccountCore
import CSodium

/// SHA-256 of session tokens through libsodium's `crypto_hash_sha256`.
public struct SHA256TokenDigester: TokenDigester {
    /// Creates the digester.
    public init() { Sodium.ensureInitialized() }

    public func digest(_ token: String) -> String {
        Hex.encode(Self.sha256(Array(token.utf8)))
    }

    /// The raw 32-byte SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Sodium.ensureInitialized()
        var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = crypto_hash_sha256(&out, bytes, UInt64(bytes.count))
        return out
    }
}
