import AccountCore
import AccountJSON
import DurableFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One value of a known field, as `JSONText.scalar` read it.
enum JSONScalar {
    /// A string; `nil` when it is well-formed JSON that names no text (invalid UTF-8, a lone
    /// surrogate escape).
    case string(String?)
    /// A number; `nil` when it is not a whole number that fits in 64 bits.
    case number(Int64?)
    case bool(Bool)
    case null
    /// An object or an array, checked and skipped.
    case container
}

/// A cursor over JSON text (RFC 8259) that checks the grammar as it goes: the primitives
/// `JSONStoreParser` reads a store with. Every fault is `.grammar` with the offset of the byte
/// where reading stopped.
struct JSONText {
    typealias Failure = JSONStoreParser.Failure
    /// Nesting deeper than this is refused, so a hostile file cannot exhaust the stack
    /// (`JSONDecoder` has the same limit).
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The next byte that is not white space, without consuming it.
    mutating func peek() -> UInt8? {
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Checks that only white space is left.
    mutating func end() throws(Failure) {
        if peek() != nil { throw fault() }
    }

    /// Reads an object, calling `body` for each member with the key's position in `keys` (`nil`
    /// for a key not listed); `body` must read the member's value.
    mutating func object(
        depth: Int, keys: [[UInt8]], _ body: (inout JSONText, Int?) throws(Failure) -> Void
    ) throws(Failure) {
        try open(UInt8(ascii: "{"), depth: depth)
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        var member = 0
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw fault() }
            let slot = try key(in: keys, likely: member)
            member += 1
            guard peek() == UInt8(ascii: ":") else { throw fault() }
            position += 1
            try body(&self, slot)
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default: throw fault()
            }
        }
    }

    /// Reads an array, calling `body` with each element's index; `body` must read the element.
    mutating func array(depth: Int, _ body: (inout JSONText, Int) throws(Failure) -> Void) throws(Failure) {
        try open(UInt8(ascii: "["), depth: depth)
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        var index = 0
        while true {
            try body(&self, index)
            index += 1
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return
            default: throw fault()
            }
        }
    }

    /// Reads any value; objects and arrays are checked and skipped.
    mutating func scalar(depth: Int) throws(Failure) -> JSONScalar {
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipValue(depth: depth)
            return .container
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: return .number(try number())
        }
    }

    /// Checks and skips any value.
    mutating func skipValue(depth: Int) throws(Failure) {
        switch peek() {
        case UInt8(ascii: "{"):
            try object(depth: depth, keys: []) { (text, _) throws(Failure) in try text.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try array(depth: depth) { (text, _) throws(Failure) in try text.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            let start = position
            // In a value nobody reads, text that names no string is still a fault of the file.
            if try string() == nil { throw .grammar(offset: start) }
        default:
            _ = try scalar(depth: depth)
        }
    }

    // MARK: - Pieces

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func fault() -> Failure { .grammar(offset: position) }

    private mutating func open(_ bracket: UInt8, depth: Int) throws(Failure) {
        guard depth <= Self.maximumDepth, peek() == bracket else { throw fault() }
        position += 1
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
            UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(bytes[position..<position + count])
        else { throw fault() }
        position += count
    }

    /// A key's position in `keys`, matched byte for byte (escapes decoded first); `likely` is
    /// tried first (files this project writes list the keys in their declared order).
    private mutating func key(in keys: [[UInt8]], likely: Int) throws(Failure) -> Int? {
        let start = position + 1
        if let end = plainStringEnd() {
            let key = UnsafeBufferPointer(rebasing: bytes[start..<end])
            func matches(_ candidate: [UInt8]) -> Bool {
                candidate.count == key.count
                    && candidate.withUnsafeBufferPointer { memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }
            }
            if likely < keys.count, matches(keys[likely]) { return likely }
            if let slot = keys.firstIndex(where: matches) { return slot }
            // A key nobody reads must still be text.
            guard String(strictUTF8: key) != nil else { throw .grammar(offset: start) }
            return nil
        }
        guard let key = try string() else { throw .grammar(offset: start) }
        let utf8 = Array(key.utf8)
        return keys.firstIndex { $0 == utf8 }
    }

    /// When the string at the cursor has no escape, moves past it and returns where its text
    /// ends; otherwise leaves the cursor alone.
    private mutating func plainStringEnd() -> Int? {
        var index = position + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                position = index + 1
                return index
            case UInt8(ascii: "\\"), 0x00..<0x20: return nil
            default: index += 1
            }
        }
        return nil
    }

    /// Reads a string (the cursor is at its opening quote).
    private mutating func string() throws(Failure) -> String? {
        let start = position + 1
        if let end = plainStringEnd() {
            return String(strictUTF8: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        var decoded: [UInt8] = []
        var valid = true
        position = start
        while true {
            guard position < bytes.count else { throw fault() }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return valid ? decoded.withUnsafeBufferPointer { String(strictUTF8: $0) } : nil
            case 0x00..<0x20:
                throw fault()
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw fault() }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    if let scalar = try unicodeEscape() {
                        decoded.append(contentsOf: String(Character(scalar)).utf8)
                    } else {
                        valid = false
                    }
                default: throw .grammar(offset: position - 1)
                }
            default:
                decoded.append(byte)
                position += 1
            }
        }
    }

    /// The character of a `\u` escape (the cursor is after the `u`), joining a surrogate pair;
    /// `nil` for a lone surrogate.
    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar? {
        let first = try hexQuad()
        switch first {
        case 0xD800..<0xDC00:
            let afterFirst = position
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { return nil }
            position += 2
            let second = try hexQuad()
            guard (0xDC00..<0xE000).contains(second) else {
                // Not a pair: the second escape is read again on its own.
                position = afterFirst
                return nil
            }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        case 0xDC00..<0xE000:
            return nil
        default:
            return Unicode.Scalar(first)
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fault() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Hex.value(bytes[position]) else { throw fault() }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Reads a number: its value when it is a whole number that fits in an `Int64` (`1.0` and
    /// `1e2` are, as `JSONDecoder` reads them), else `nil`.
    private mutating func number() throws(Failure) -> Int64? {
        let start = position
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        let digitsStart = position
        // Accumulated on the negative side, which also holds Int64.min.
        var value: Int64 = 0
        var fits = true
        while position < bytes.count, let digit = Self.digit(bytes[position]) {
            if fits {
                let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
                let (next, overflowB) = times10.subtractingReportingOverflow(digit)
                fits = !overflowA && !overflowB
                value = next
            }
            position += 1
        }
        let digitCount = position - digitsStart
        guard digitCount > 0 else { throw fault() }
        if digitCount > 1 && bytes[digitsStart] == UInt8(ascii: "0") { throw .grammar(offset: digitsStart) }
        var whole = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            whole = false
            position += 1
            try digits()
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            whole = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            try digits()
        }
        guard whole else {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            return Double(text).flatMap { Int64(exactly: $0) }
        }
        if negative { return fits ? value : nil }
        guard fits, value != .min else { return nil }
        return -value
    }

    private mutating func digits() throws(Failure) {
        let start = position
        while position < bytes.count, Self.digit(bytes[position]) != nil { position += 1 }
        if position == start { throw fault() }
    }

    private static func digit(_ byte: UInt8) -> Int64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
    }
}
