import AccountCore
import Testing

/// Lowercase hexadecimal, the text of ids and token digests.
@Suite("Hex")
struct HexTests {
    @Test("encodes every byte as two lowercase digits, and decodes back")
    func roundTrip() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x09, 0x0f, 0x10, 0xa0, 0xf0, 0xff]) == "00090f10a0f0ff")
        let every = (0...255).map { UInt8($0) }
        let text = Hex.encode(every)
        #expect(text.utf8.count == 512 && Hex.isLowercaseHex(text, byteCount: 256))
        #expect(Hex.decode(text) == every)
        #expect(Hex.decode(text.uppercased()) == every)
        #expect(Hex.decode("abc") == nil && Hex.decode("zz") == nil)
    }
}
