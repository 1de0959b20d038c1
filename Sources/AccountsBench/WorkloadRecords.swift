import AccountCore

/// The records of the raw-engine baselines: `user%07d@example.com`, a 10-byte UTF-8 nickname
/// (`nïck%05d`), a 97-byte Argon2id PHC string and a timestamp.
///
/// The raw reference formats these with `sprintf` inside its clock (phases A, C and E), so they
/// are formatted here the same way, on the stack, at a comparable cost (~290 ns for a record's
/// three strings against ~350 ns of `sprintf`); concatenating `String(n)` and
/// `String(repeating:count:)` took a fifth of a whole workload run.
enum WorkloadRecords {
    static let passwordHash =
        "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"

    static func email(_ n: Int) -> String {
        formatted(prefix: "user", decimal: n, width: 7, suffix: "@example.com")
    }

    /// User `n` (its id, nickname and timestamp follow `n`), with the email of user `emailOf`.
    static func user(_ n: Int, emailOf: Int? = nil) -> UserRecord {
        UserRecord(
            id: UserID(rawValue: hex32(n)), email: email(emailOf ?? n),
            nickname: formatted(prefix: "nïck", decimal: n % 100_000, width: 5, suffix: ""),
            passwordHash: passwordHash, createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(n)))
    }

    /// `%032x`: shifts and masks, no division.
    private static func hex32(_ value: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var rest = UInt(bitPattern: value)
            for position in stride(from: 31, through: 0, by: -1) {
                let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                buffer[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                rest >>= 4
            }
            return String(decoding: UnsafeBufferPointer(buffer), as: UTF8.self)
        }
    }

    /// `prefix`, `value` in decimal zero-padded to `width` digits, then `suffix`, written on the
    /// stack like `sprintf` and then made a string (one allocation at most). Dividing by a
    /// constant compiles to a multiplication; a variable radix cost more than the rest.
    private static func formatted(prefix: StaticString, decimal value: Int, width: Int, suffix: StaticString)
        -> String
    {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let count = max(width, digits)
        let total = prefix.utf8CodeUnitCount + count + suffix.utf8CodeUnitCount
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { buffer in
            let base = buffer.baseAddress!
            base.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            rest = value
            for position in stride(
                from: prefix.utf8CodeUnitCount + count - 1, through: prefix.utf8CodeUnitCount, by: -1)
            {
                base[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            (base + prefix.utf8CodeUnitCount + count).update(from: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
            return String(decoding: UnsafeBufferPointer(start: base, count: total), as: UTF8.self)
        }
    }
}
