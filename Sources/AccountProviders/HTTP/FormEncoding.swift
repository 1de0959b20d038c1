/// `application/x-www-form-urlencoded` as the WHATWG URL standard writes it, which OAuth
/// servers read (RFC 6749 appendix B): every byte but the unreserved ones is percent-encoded,
/// a space as `%20` (never `+`, which some servers read back as a plus).
public enum FormEncoding {
    /// `pairs` as a query or a form body.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(component($0.0))=\(component($0.1))" }.joined(separator: "&")
    }

    /// One name or value, percent-encoded but for `A–Z a–z 0–9 - . _ ~`.
    public static func component(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
