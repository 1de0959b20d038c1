/// One JSON text (RFC 8259) read into a ``SourceJSON``, strictly: the grammar of the RFC, UTF-8
/// that is valid (escapes included: a lone surrogate is refused), numbers that are finite, at
/// most ``depthLimit`` nested objects and arrays, and no member named twice in one object (which
/// of two passwords would be meant is not for the importer to guess). Any of these broken gives
/// nil, and the importer refuses the record or the file.
///
/// An import reads every record of a file twice (the check, then the store pass), so this reads
/// the bytes once, without Foundation's decoder and the errors its schema-less decoding throws
/// to find each value's type.
package struct SourceJSONParser: ~Copyable {
    /// The deepest nesting read (Foundation's JSON decoder stops at the same depth).
    static let depthLimit = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// `bytes`, one JSON value with white space around it, decoded; nil when they are not one.
    package static func parse(_ bytes: [UInt8]) -> SourceJSON? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = SourceJSONParser(buffer)
            guard let value = parser.value(depth: 0) else { return nil }
            parser.skipWhiteSpace()
            return parser.index == buffer.count ? value : nil
        }
    }

    private mutating func skipWhiteSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) -> SourceJSON? {
        skipWhiteSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return depth < Self.depthLimit ? object(depth: depth + 1) : nil
        case UInt8(ascii: "["): return depth < Self.depthLimit ? array(depth: depth + 1) : nil
        case UInt8(ascii: "\""): return string().map(SourceJSON.text)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    private mutating func object(depth: Int) -> SourceJSON? {
        index += 1
        var members: [String: SourceJSON] = [:]
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else { return nil }
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value(depth: depth), members.updateValue(member, forKey: name) == nil else {
                return nil
            }
            skipWhiteSpace()
            guard index < bytes.count else { return nil }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array(depth: Int) -> SourceJSON? {
        index += 1
        var elements: [SourceJSON] = []
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipWhiteSpace()
            guard index < bytes.count else { return nil }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return .array(elements)
            default: return nil
            }
        }
    }

    private mutating func literal(_ word: StaticString, _ value: SourceJSON) -> SourceJSON? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return value
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. An integer that
    /// fits in 64 bits is `.integer`; any other finite number is `.number`, unless it is a whole
    /// number that fits (`1.0`, `1e3`), which is the integer, as Foundation's decoder reads it.
    private mutating func number() -> SourceJSON? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return nil }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
            integral = false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return nil }
            integral = false
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let whole = Int64(text) { return .integer(whole) }
        guard let double = Double(text), double.isFinite else { return nil }
        if let whole = Int64(exactly: double) { return .integer(whole) }
        return .number(double)
    }

    /// Skips ASCII digits and says how many there were.
    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    /// The string that starts at the `"` here, its escapes resolved; nil for a control
    /// character, an unknown escape, a lone surrogate or bytes that are not UTF-8.
    private mutating func string() -> String? {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(validating: decoded, as: UTF8.self)
            case 0..<0x20: return nil
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                index += 1
                switch bytes[index - 1] {
                case UInt8(ascii: "\""): decoded.append(0x22)
                case UInt8(ascii: "\\"): decoded.append(0x5C)
                case UInt8(ascii: "/"): decoded.append(0x2F)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = escapedScalar() else { return nil }
                    decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: return nil
                }
            default: decoded.append(byte)
            }
        }
        return nil
    }

    /// The scalar of a `\uXXXX` escape whose `\u` was read, a surrogate pair's two escapes
    /// together (RFC 8259 §7); nil for a lone surrogate.
    private mutating func escapedScalar() -> Unicode.Scalar? {
        guard let first = hexQuad() else { return nil }
        switch first {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            index += 2
            guard let second = hexQuad(), (0xDC00...0xDFFF).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        case 0xDC00...0xDFFF: return nil
        default: return Unicode.Scalar(first)
        }
    }

    /// Four hex digits as a number.
    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
