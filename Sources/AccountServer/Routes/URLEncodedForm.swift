/// The pairs of an `application/x-www-form-urlencoded` body, as browsers post forms and as
/// Strapi clients (`URLSession` with `username=…&email=…`) post sign-ups. Shared by the web pages'
/// forms and the Strapi routes, which each decide what a pair that does not decode means.
package enum URLEncodedForm {
    /// One `name=value` pair: `+` read as a space and `%XX` as its byte, from the bytes as sent
    /// (decoding them as a string first would repair broken UTF-8 before it could be seen);
    /// `nil` where a `%` is not followed by two hex digits. A pair without `=` has an empty
    /// value.
    package typealias Pair = (name: [UInt8]?, value: [UInt8]?)

    /// Every pair of `bytes`, in order; empty pairs (`a=1&&b=2`) are skipped.
    package static func pairs(_ bytes: [UInt8]) -> [Pair] {
        bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return (percentDecoded(parts[0]), parts.count > 1 ? percentDecoded(parts[1]) : [])
        }
    }

    /// `+` as a space and `%XX` as its byte; `nil` when a `%` is not followed by two hex digits.
    private static func percentDecoded(_ part: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.count)
        var index = part.startIndex
        while index < part.endIndex {
            let byte = part[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < part.endIndex, let high = hexValue(part[index + 1]),
                    let low = hexValue(part[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
