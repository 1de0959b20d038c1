public import AccountCore
import CSodium

/// The operating system's CSPRNG through libsodium's `randombytes_buf`.
public struct SodiumRandomSource: RandomSource {
    /// Creates the source.
    public init() { Sodium.ensureInitialized() }

    public func bytes(_ count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        buffer.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return buffer
    }
}
