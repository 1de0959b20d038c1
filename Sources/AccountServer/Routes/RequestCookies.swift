import HTTPTypes
package import Hummingbird

/// The cookies of the pages and of a provider sign-in as a request carries them, read byte for byte: a name is this site's only
/// when its bytes are exactly the name, so `\u{2000}__Host-accounts_session`, which a sibling
/// subdomain may set (it is not a `__Host-` name to the browser), is another cookie, never this
/// site's session. Only the space and the tab around a pair are trimmed (RFC 6265 §5.4 writes
/// `"; "` between pairs; browsers read a lone space after the `=` too). A name of this site's
/// given twice — in one `Cookie` header or across several — is no answer of which to believe,
/// so the request is refused (``repeated``) instead of taking the first.
package struct RequestCookies {
    /// The value of each of the names asked for that the request carries once.
    private(set) var values: [String: String] = [:]
    /// A name asked for that the request carries more than once; `nil` when none is.
    package private(set) var repeated: String?

    /// Reads the cookies of `request` named in `names`; other cookies are passed over.
    package init(_ request: Request, names: Set<String>) {
        var seen: Set<String> = []
        for field in request.headers[values: .cookie] {
            for pair in field.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true) {
                let trimmed = Self.trimmingSpaceAndTab(pair)
                guard let equals = trimmed.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = String(decoding: trimmed[..<equals], as: UTF8.self)
                guard names.contains(name) else { continue }
                if !seen.insert(name).inserted {
                    repeated = repeated ?? name
                    values[name] = nil
                    continue
                }
                values[name] = String(
                    decoding: Self.trimmingSpaceAndTab(trimmed[trimmed.index(after: equals)...]), as: UTF8.self)
            }
        }
        if let repeated { values[repeated] = nil }
    }

    package subscript(name: String) -> String? { values[name] }

    private static func trimmingSpaceAndTab(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, blank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, blank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return bytes[start..<end]
    }
}
