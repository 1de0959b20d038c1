import AccountTestSupport
import DurableFiles
import Testing

@Suite("Strict UTF-8 decoding")
struct StrictUTF8Tests {
    static let valid: [(String, [UInt8])] = [
        ("empty", []),
        ("ASCII", Array("user0000001@example.com".utf8)),
        ("two-, three- and four-byte characters", Array("nïck€😀".utf8)),
        ("an embedded NUL", [0x61, 0x00, 0x62]),
    ]

    static let invalid: [(String, [UInt8])] = [
        ("a lone continuation byte", [0x61, 0x80]),
        ("0xFF", [0xFF]),
        // Repaired to one U+FFFD (also 3 bytes): only comparing the bytes tells them apart.
        ("a four-byte sequence cut after three bytes", [0xF0, 0x9F, 0x98]),
        ("an overlong encoding of '/'", [0xC0, 0xAF]),
        ("an encoded surrogate", [0xED, 0xA0, 0x80]),
        ("U+FFFD itself, then a stray byte", Array("\u{FFFD}".utf8) + [0xC3]),
    ]

    @Test("valid UTF-8 gives the same string as the standard library", arguments: valid)
    func acceptsValid(_ name: String, _ bytes: [UInt8]) {
        let text = bytes.withUnsafeBufferPointer { String(strictUTF8: $0) }
        #expect(text == String(validating: bytes, as: UTF8.self), "\(name)")
        #expect(text.map { Array($0.utf8) } == bytes, "\(name)")
    }

    @Test("invalid UTF-8 is refused, never repaired", arguments: invalid)
    func refusesInvalid(_ name: String, _ bytes: [UInt8]) {
        #expect(String(validating: bytes, as: UTF8.self) == nil, "the case itself is invalid: \(name)")
        #expect(bytes.withUnsafeBufferPointer { String(strictUTF8: $0) } == nil, "\(name)")
    }
}
