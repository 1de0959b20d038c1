import AccountConformance
import AccountOperations
import Foundation
import Testing

/// The importers' JSON reader against Foundation's decoder, which read the records before it:
/// the same value for every text Foundation reads as RFC 8259 JSON, and nil for every text it
/// refuses, over hand-picked edge cases and thousands of generated and mutated texts. What
/// Foundation reads beyond the RFC (a trailing comma, a leading NUL or byte order mark) the
/// reader refuses.
@Suite("The importers' JSON reader")
struct SourceJSONParserTests {
    /// What Foundation's decoder makes of `text` without a schema, as the importers read it
    /// before (each type tried in turn); nil when it refuses the text.
    enum Reference: Decodable {
        case value(SourceJSON)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .value(.null)
            } else if let value = try? container.decode(String.self) {
                self = .value(.text(value))
            } else if let value = try? container.decode(Bool.self) {
                self = .value(.bool(value))
            } else if let value = try? container.decode(Int64.self) {
                self = .value(.integer(value))
            } else if let value = try? container.decode(Double.self) {
                self = .value(.number(value))
            } else if let value = try? container.decode([Reference].self) {
                self = .value(.array(value.map(\.json)))
            } else {
                self = .value(.object(try container.decode([String: Reference].self).mapValues(\.json)))
            }
        }

        var json: SourceJSON {
            switch self {
            case .value(let json): json
            }
        }

        static func decode(_ bytes: [UInt8]) -> SourceJSON? {
            (try? JSONDecoder().decode(Reference.self, from: Data(bytes)))?.json
        }
    }

    static let edgeCases: [String] = [
        "0", "-0", "[1,]", #"{"a":1,}"#, "\u{FEFF}[1]", "\u{0}1", "1.0", "1e3", "1E+2", "-12.5e-1",
        "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "1.5", "01", "1.", ".5", "-", "1e", "+1", "1e400", "0x10", "NaN",
        #""""#, #""a\"b\\c\/d\b\f\n\r\t""#, #""\u00e9\u20AC\ud83d\ude00""#, #""\ud83d""#, #""\ude00""#,
        #""\ud83dx""#, #""\u12""#, #""\x""#, "\"tab\there\"", "\"이순신\"", "\"unterminated", "true", "false",
        "null", "tru", "nul", "True", "[]", "{}", "[,1]", "[1 2]", #"{"a" 1}"#, #"{a:1}"#,
        #"{"a":[{"b":null}],"c":{"d":"e"}}"#, "  [ 1 , 2 ]  ", "[1]]", "[1] x", #"{"":0}"#,
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ]

    @Test("hand-picked edge cases read as Foundation's decoder reads them")
    func edgeCases() {
        for text in Self.edgeCases {
            let bytes = Array(text.utf8)
            let expected = Self.beyondTheRFC(bytes) ? nil : Reference.decode(bytes)
            #expect(SourceJSONParser.parse(bytes) == expected, "\(text.prefix(40))")
        }
    }

    @Test("bytes that are not UTF-8 inside a string are refused, as Foundation refuses them")
    func invalidUTF8() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            #expect(SourceJSONParser.parse(bytes) == nil)
            #expect(Reference.decode(bytes) == nil)
        }
    }

    @Test("a member named twice is refused: which value was meant is not guessed")
    func duplicateMembers() {
        #expect(SourceJSONParser.parse(Array(#"{"password":"a","password":"b"}"#.utf8)) == nil)
        #expect(SourceJSONParser.parse(Array(#"{"a":{"x":1},"b":{"x":1}}"#.utf8)) != nil)
    }

    @Test("generated texts, and each with bytes cut, changed or inserted, read alike")
    func generated() {
        var random = SplitMix64(seed: 0x5EED_0F15)
        var compared = 0
        for _ in 0..<3_000 {
            let text = Array(Self.text(depth: 0, random: &random).utf8)
            var variants = [text]
            for _ in 0..<3 where !text.isEmpty {
                var mutated = text
                let at = Int(random.next() % UInt64(mutated.count))
                let pool = Array(#"{}[]",:0123456789-+.eE"\ut"#.utf8) + [0x00, 0x1F, 0xC3, 0xFF]
                switch random.next() % 3 {
                case 0: mutated.remove(at: at)
                case 1: mutated[at] = pool[Int(random.next() % UInt64(pool.count))]
                default: mutated.insert(pool[Int(random.next() % UInt64(pool.count))], at: at)
                }
                variants.append(mutated)
            }
            for bytes in variants where !Self.namesAMemberTwice(bytes) {
                let expected = Self.beyondTheRFC(bytes) ? nil : Reference.decode(bytes)
                #expect(SourceJSONParser.parse(bytes) == expected, "\(bytes)")
                compared += 1
            }
        }
        #expect(compared > 9_000)
    }

    @Test(
        "what Foundation reads beyond RFC 8259 is refused", arguments: ["[1,]", #"{"a":1,}"#, "\u{FEFF}[1]", "\u{0}1"])
    func beyondTheRFC(_ text: String) {
        #expect(Reference.decode(Array(text.utf8)) != nil, "Foundation reads it")
        #expect(SourceJSONParser.parse(Array(text.utf8)) == nil)
    }

    /// Whether `bytes` begin with a NUL or a byte order mark, or have a `,` right before a
    /// closing bracket: JSON that Foundation reads and RFC 8259 does not allow.
    static func beyondTheRFC(_ bytes: [UInt8]) -> Bool {
        if bytes.first == 0 || bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return true }
        var inString = false
        var escaped = false
        var afterComma = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                afterComma = false
            case UInt8(ascii: ","): afterComma = true
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if afterComma { return true }
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: afterComma = false
            }
        }
        return false
    }

    /// Whether Foundation reads `bytes` as an object that names one member twice somewhere (it
    /// keeps one of them, which the reader refuses).
    static func namesAMemberTwice(_ bytes: [UInt8]) -> Bool {
        guard let any = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) else {
            return false
        }
        let text = String(decoding: bytes, as: UTF8.self)
        func memberCount(_ value: Any) -> Int {
            if let object = value as? [String: Any] {
                return object.count + object.values.map(memberCount).reduce(0, +)
            }
            if let array = value as? [Any] { return array.map(memberCount).reduce(0, +) }
            return 0
        }
        return memberCount(any) != text.filter { $0 == ":" }.count - Self.colonsInStrings(text)
    }

    /// The `:` inside the strings of `text`, which name no member.
    static func colonsInStrings(_ text: String) -> Int {
        var inString = false
        var escaped = false
        var count = 0
        for character in text {
            if escaped {
                escaped = false
            } else if character == "\\" && inString {
                escaped = true
            } else if character == "\"" {
                inString.toggle()
            } else if character == ":" && inString {
                count += 1
            }
        }
        return count
    }

    /// A random JSON text: objects and arrays up to four deep, strings with escapes and
    /// non-ASCII letters, integers near the 64-bit limits, fractions and exponents.
    static func text(depth: Int, random: inout SplitMix64) -> String {
        let choice = random.next() % (depth < 4 ? 9 : 6)
        switch choice {
        case 0: return ["true", "false", "null"][Int(random.next() % 3)]
        case 1: return String(Int64(bitPattern: random.next()) >> (random.next() % 64))
        case 2:
            let exponent = random.next() % 2 == 0 ? "" : "e\(Int(random.next() % 40) - 20)"
            return "\(Int(random.next() % 2000) - 1000).\(random.next() % 1000)" + exponent
        case 3, 4, 5:
            let pieces = ["a", "Z", "이", "é", "😀", #"\n"#, #"\""#, #"\\"#, #"\u00e9"#, #"\ud83d\ude00"#, " ", ":"]
            let count = Int(random.next() % 6)
            return "\"" + (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() + "\""
        case 6, 7:
            let count = Int(random.next() % 4)
            let members = (0..<count).map { index in
                "\"k\(index)\(random.next() % 3)\": " + text(depth: depth + 1, random: &random)
            }
            return "{" + members.joined(separator: ", ") + "}"
        default:
            let count = Int(random.next() % 4)
            return "[" + (0..<count).map { _ in text(depth: depth + 1, random: &random) }.joined(separator: ",") + "]"
        }
    }
}
