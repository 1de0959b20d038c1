import Foundation

/// The keys of a JSON object's own members, in order, from its text: what `JSONDecoder` does
/// not say. It keeps the first of two equal keys where JavaScript's `JSON.parse` (and so a
/// proxy or a Strapi server in front) keeps the last, so a body with a key twice means two
/// different things to two readers; the API refuses it instead of choosing.
enum JSONObjectKeys {
    /// The first key that appears more than once among the top-level object's members, or nil.
    /// `json` must be valid JSON (decode it first): only strings and nesting are tracked.
    static func firstRepeated(in json: some Collection<UInt8>) -> String? {
        var seen = Set<String>()
        var depth = 0
        var index = json.startIndex
        // Whether the string that starts next is a key of the top-level object: after its `{`
        // or after a `,` between its members.
        var expectingKey = false
        while index < json.endIndex {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = endOfString(in: json, openingAt: index)
                if depth == 1, expectingKey {
                    let key = decodedKey(json[index..<end])
                    if !seen.insert(key).inserted { return key }
                    expectingKey = false
                }
                index = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1 && byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                expectingKey = depth == 1
            default:
                break
            }
            index = json.index(after: index)
        }
        return nil
    }

    /// The index just past the string whose opening quote is at `start`.
    private static func endOfString<Bytes: Collection<UInt8>>(in json: Bytes, openingAt start: Bytes.Index)
        -> Bytes.Index
    {
        var index = json.index(after: start)
        while index < json.endIndex {
            switch json[index] {
            case UInt8(ascii: "\\"):
                index = json.index(after: index)
                if index < json.endIndex { index = json.index(after: index) }
            case UInt8(ascii: "\""):
                return json.index(after: index)
            default:
                index = json.index(after: index)
            }
        }
        return index
    }

    /// A key's text with its escapes resolved, as the decoder sees it (`"em\u0061il"` is `email`).
    private static func decodedKey(_ quoted: some Collection<UInt8>) -> String {
        let inner = quoted.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: inner, as: UTF8.self)
    }
}
