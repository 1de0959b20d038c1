import AccountJSON
import Foundation
import Testing

/// The serializer behind `--json`, export headers and every HTTP API answer.
@Suite("JSON values")
struct JSONValueTests {
    @Test("every kind of value is written compactly, keys in the order given")
    func exactBytes() {
        let value = JSONValue.object([
            ("z", .null), ("t", .bool(true)), ("f", .bool(false)), ("min", .int(.min)), ("max", .int(.max)),
            ("zero", .int(0)), ("list", .array([.int(-1), .string(""), .array([]), .object([])])),
            ("nick", .string("이순신 😀")),
        ])
        #expect(
            value.serialized()
                == #"{"z":null,"t":true,"f":false,"min":-9223372036854775808,"max":9223372036854775807,"#
                + #""zero":0,"list":[-1,"",[],{}],"nick":"이순신 😀"}"#)
    }

    @Test("quotes, backslashes and every control character are escaped; the text reads back the same")
    func escapes() throws {
        #expect(JSONValue.string("a\"b\\c\n\r\t\u{01}\u{1F}").serialized() == #""a\"b\\c\n\r\t\u0001\u001f""#)
        let controls = String(decoding: (0..<0x20).map { UInt8($0) } + Array("\"\\/\u{7F}".utf8), as: UTF8.self)
        let text = JSONValue.array([.string(controls)]).serialized()
        #expect(!text.utf8.contains { $0 < 0x20 }, "no raw control byte: \(text)")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
        #expect(parsed == [controls])
    }
}
