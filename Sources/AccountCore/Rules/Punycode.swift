/// Punycode (RFC 3492), the encoding of an internationalized domain's labels in ASCII
/// (IDNA's A-labels, `xn--…`): an address typed or exported with a Unicode domain
/// (`user@실례.한국`) is the address the mail system knows as `user@xn--9n2bp8q.xn--3e0b707e`.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128

    /// The ASCII form of one domain label: itself when it is ASCII, else `xn--` and its Punycode
    /// (RFC 3492 §6.3), or nil when it would overflow (a label far longer than any domain allows).
    static func asciiLabel(_ label: some StringProtocol) -> String? {
        let scalars = Array(label.unicodeScalars)
        guard !scalars.allSatisfy(\.isASCII) else { return String(label) }
        return encode(scalars.map { Int($0.value) }).map { "xn--" + $0 }
    }

    /// RFC 3492's encoder over code points.
    static func encode(_ codes: [Int]) -> String? {
        var output = codes.filter { $0 < 0x80 }.map(UInt8.init)
        let basicCount = output.count
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var handled = basicCount
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < codes.count {
            guard let m = codes.filter({ $0 >= n }).min() else { return nil }
            let (step, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - step else { return nil }
            delta += step
            n = m
            for code in codes {
                if code < n { delta += 1 }
                guard code == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3492 §6.1's bias adaptation.
    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// The basic code point of digit `d` (0–25: a–z, 26–35: 0–9).
    private static func digit(_ d: Int) -> UInt8 {
        UInt8(d < 26 ? 97 + d : 22 + d)
    }
}
