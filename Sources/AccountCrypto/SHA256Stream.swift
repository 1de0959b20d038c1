import AccountCore
import CSodium

/// SHA-256 over data that arrives in pieces (export files, store digests).
public struct SHA256Stream {
    private var state = crypto_hash_sha256_state()

    /// Starts an empty digest.
    public init() {
        Sodium.ensureInitialized()
        crypto_hash_sha256_init(&state)
    }

    /// Adds bytes.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        crypto_hash_sha256_update(&state, array, UInt64(array.count))
    }

    /// Adds the UTF-8 bytes of `text`.
    public mutating func update(_ text: String) {
        update(Array(text.utf8))
    }

    /// The digest so far as lowercase hex (the stream can go on).
    public func hexDigest() -> String {
        var copy = state
        var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256_final(&copy, &out)
        return Hex.encode(out)
    }
}
