import AccountCore

/// The records of the raw-engine baselines: `user%07d@example.com`, a 10-byte UTF-8 nickname
/// (`nïck%05d`), a 97-byte Argon2id PHC string and a timestamp.
///
/// The raw reference formats these with `sprintf` inside its clock (phases A and E), so they are
/// formatted here straight into the strings' storage, at a comparable cost; concatenating
/// `String(n)` and `String(repeating:count:)` took a fifth of a whole workload run.
enum WorkloadRecords {
    static let passwordHash =
        "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"

    static func email(_ n: Int) -> String {
        formatted(prefix: "user", n, width: 7, radix: 10, suffix: "@example.com")
    }

    static func user(_ n: Int) -> UserRecord {
        UserRecord(
            id: UserID(rawValue: formatted(prefix: "", n, width: 32, radix: 16, suffix: "")), email: email(n),
            nickname: formatted(prefix: "nïck", n % 100_000, width: 5, radix: 10, suffix: ""),
            passwordHash: passwordHash, createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(n)))
    }

    /// `prefix`, `value` zero-padded to `width` digits (lowercase in base 16), then `suffix`.
    private static func formatted(prefix: StaticString, _ value: Int, width: Int, radix: Int, suffix: StaticString)
        -> String
    {
        var digits = 1
        var rest = value / radix
        while rest > 0 {
            digits += 1
            rest /= radix
        }
        let count = max(width, digits)
        return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + count + suffix.utf8CodeUnitCount) {
            buffer in
            var end = 0
            func append(_ text: StaticString) {
                text.withUTF8Buffer { bytes in
                    for byte in bytes {
                        buffer[end] = byte
                        end += 1
                    }
                }
            }
            append(prefix)
            rest = value
            for position in stride(from: end + count - 1, through: end, by: -1) {
                let digit = UInt8(rest % radix)
                buffer[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                rest /= radix
            }
            end += count
            append(suffix)
            return end
        }
    }
}
