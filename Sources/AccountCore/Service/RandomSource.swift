/// A source of unpredictable bytes, used for user ids and session tokens.
///
/// Injected so that tests can be deterministic; production uses the operating system's CSPRNG.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

extension RandomSource {
    /// `count` random bytes as lowercase hexadecimal (2 × `count` characters).
    public func hex(_ count: Int) -> String {
        Hex.encode(bytes(count))
    }
}
