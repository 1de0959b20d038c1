import AccountCore

/// The records of the raw-engine baselines: `user%07d@example.com`, a 10-byte UTF-8 nickname
/// (`nïck%05d`), a 97-byte Argon2id PHC string and a timestamp.
enum WorkloadRecords {
    static let passwordHash =
        "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"

    static func email(_ n: Int) -> String {
        let digits = String(n)
        return "user" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits + "@example.com"
    }

    static func user(_ n: Int) -> UserRecord {
        let digits = String(n % 100_000)
        let hex = String(n, radix: 16)
        return UserRecord(
            id: UserID(rawValue: String(repeating: "0", count: 32 - hex.count) + hex), email: email(n),
            nickname: "nïck" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits,
            passwordHash: passwordHash, createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(n)))
    }
}
