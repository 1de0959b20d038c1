#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// The string spelled by `bytes` when they are valid UTF-8, else `nil`.
    ///
    /// `String(validating:as:)` answers the same question, but it is generic over the encoding
    /// and looks up type metadata at run time on every call: a third of an LMDB lookup's time.
    /// `String(decoding:as:)` takes the standard library's specialised UTF-8 path and repairs
    /// invalid input with U+FFFD, so getting the very same bytes back proves nothing was repaired.
    public init?(strictUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        var text = String(decoding: bytes, as: UTF8.self)
        let unchanged = text.withUTF8 { decoded in
            decoded.count == bytes.count
                && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        guard unchanged else { return nil }
        self = text
    }
}
