import Foundation

/// The pieces of a `$name$params$salt$hash…` string, as Kratos and passlib write PBKDF2 and
/// scrypt hashes: `k=v` parameters and base64 fields.
struct PHCFields {
    /// The fields after the scheme's name, split at `$`.
    let fields: [Substring]
    /// The `k=v` parameters of the first field.
    let parameters: [Substring: Substring]

    /// `stored` split after `prefix`, or nil when it does not start with it.
    init?(_ stored: String, prefix: String) {
        guard stored.hasPrefix(prefix) else { return nil }
        fields = stored.dropFirst(prefix.count).split(separator: "$", omittingEmptySubsequences: false)
        var parameters: [Substring: Substring] = [:]
        for pair in fields.first?.split(separator: ",") ?? [] {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { parameters[parts[0]] = parts[1] }
        }
        self.parameters = parameters
    }

    /// The integer parameter `key`, when it is one in `range` written in plain digits.
    func integer(_ key: Substring, in range: ClosedRange<Int>) -> Int? {
        parameters[key].flatMap(Self.digits).flatMap { range.contains($0) ? $0 : nil }
    }

    /// `text` as a number when it is 1 to 10 ASCII digits (no sign, no spaces), else nil.
    static func digits(_ text: Substring) -> Int? {
        guard (1...10).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// Field `index` decoded from base64: standard, padded or not, or passlib's adapted
    /// alphabet (`.` for `+`).
    func bytes(_ index: Int) -> [UInt8]? {
        guard index < fields.count else { return nil }
        return Base64.decode(fields[index].replacingOccurrences(of: ".", with: "+"))
    }
}
