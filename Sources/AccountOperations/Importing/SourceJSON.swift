/// Any JSON value of another system's export, decoded without a schema: the importers pick
/// the fields they map and leave the rest.
package indirect enum SourceJSON: Equatable, Sendable {
    case text(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null
    case array([SourceJSON])
    case object([String: SourceJSON])

    /// `bytes` decoded, or nil when they are not one JSON value (what `SourceJSONParser`
    /// refuses).
    package static func decode(_ bytes: [UInt8]) -> SourceJSON? {
        SourceJSONParser.parse(bytes)
    }

    /// The member `key` of an object (nil for anything else).
    subscript(key: String) -> SourceJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// A string as it is, a number as its digits; nil for the rest.
    var text: String? {
        switch self {
        case .text(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        default: nil
        }
    }

    /// The elements of an array (empty for anything else).
    var elements: [SourceJSON] {
        if case .array(let values) = self { return values }
        return []
    }

    /// A JSON object held as text (Keycloak's `secretData`, Supabase's metadata column in CSV),
    /// decoded; an object as it is.
    var embedded: SourceJSON? {
        if case .text(let value) = self { return Self.decode(Array(value.utf8)) }
        return self
    }

    /// An object or array kept as JSON text, for a column that holds JSON (Supabase's
    /// `raw_user_meta_data`).
    var serialized: String {
        switch self {
        case .object(let members):
            return "{"
                + members.map { SourceJSON.text($0.key).serialized + ":" + $0.value.serialized }.joined(separator: ",")
                + "}"
        case .array(let values): return "[" + values.map(\.serialized).joined(separator: ",") + "]"
        case .text(let text):
            var out: [UInt8] = []
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += Array("\\\"".utf8)
                case "\\": out += Array("\\\\".utf8)
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: out += Array(String(scalar).utf8)
                }
            }
            return "\"" + String(decoding: out, as: UTF8.self) + "\""
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        default: return text ?? "null"
        }
    }
}
