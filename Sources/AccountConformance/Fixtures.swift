import AccountCore

/// Records the checks store: deterministic, with hostile text where it matters.
enum Fixtures {
    /// A 97-byte Argon2id PHC string shaped like a real one (backends never verify it).
    static let passwordHash =
        "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"

    /// Nicknames that break naive storage: quotes, backslashes, emoji (with joiners), RTL marks,
    /// combining marks, control characters, 20 Korean graphemes, and a very long string.
    static let hostileNicknames: [String] = [
        "O'Brien \"the\" \\ quote",
        "back\\slash\\\\n not a newline",
        "👩‍👩‍👧‍👦 family 🏳️‍🌈 flag",
        "\u{200F}مرحبا\u{200E} RTL mark",
        "가나다라마바사아자차카타파하가나다라마바",
        "e\u{301} vs é (not normalized)",
        "tab\tnew\nline\r\u{1}\u{7F}",
        "nul\u{0}inside",
        String(repeating: "長", count: 2_000),
        "{\"json\": [1, 2]} <xml/> '; DROP TABLE users; --",
    ]

    static func id(_ n: Int) -> UserID {
        let hex = String(n, radix: 16)
        return UserID(rawValue: String(repeating: "0", count: 32 - hex.count) + hex)
    }

    static func email(_ n: Int) -> String {
        let digits = String(n)
        return "user" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits + "@example.com"
    }

    static func user(_ n: Int, email: String? = nil, nickname: String? = nil) -> UserRecord {
        UserRecord(
            id: id(n), email: email ?? Self.email(n), nickname: nickname ?? "nïck\(n)",
            passwordHash: passwordHash, createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(n)))
    }

    /// User `n` under `resident`'s id: only a hand-made record or a broken random source makes one.
    static func user(_ n: Int, reusingIDOf resident: UserRecord) -> UserRecord {
        var user = user(n)
        user.id = resident.id
        return user
    }

    static func tokenHash(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return String(repeating: "a", count: 64 - hex.count) + hex
    }

    /// Session `n`, named after one of ``deviceNames`` (which a backend must keep byte for byte).
    static func session(_ n: Int, user: UserID, remember: Bool = false) -> SessionRecord {
        let created = Timestamp(millisecondsSince1970: 1_700_000_100_000 + Int64(n))
        return SessionRecord(
            tokenHash: tokenHash(n), userID: user, createdAt: created, lastSeenAt: created,
            expiresAt: created.adding(seconds: 3_600), idleTimeoutSeconds: 600, remember: remember,
            device: deviceNames[n % deviceNames.count])
    }

    /// Device names as a backend may be handed them: none, a browser's, and text no rule
    /// checked (a backend stores it, it does not validate it).
    static let deviceNames = [
        "", "Firefox on Linux", "내 휴대폰 👩‍💻", "a\u{0}b \"quoted\" \\ / \u{7F}\u{202E}", String(repeating: "é", count: 64),
    ]
}

/// Assertions that throw `ConformanceFailure`, for checks and for `ReferenceData`.
protocol ConformanceExpecting {}

extension ConformanceExpecting {
    /// Fails the check with `message` unless `condition` holds.
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(message()) }
    }

    /// Fails unless the two users agree on every field, byte for byte.
    func expectIdentical(_ actual: UserRecord?, _ expected: UserRecord, _ what: String) throws {
        guard let actual else { throw ConformanceFailure("\(what): user \(expected.email) is missing") }
        try expect(actual.id == expected.id, "\(what): id changed")
        try expect(Array(actual.email.utf8) == Array(expected.email.utf8), "\(what): email bytes changed")
        try expect(
            Array(actual.nickname.utf8) == Array(expected.nickname.utf8),
            "\(what): nickname bytes changed (\(expected.nickname.utf8.count) bytes in, \(actual.nickname.utf8.count) out)"
        )
        try expect(
            Array(actual.passwordHash.utf8) == Array(expected.passwordHash.utf8), "\(what): password hash changed")
        try expect(actual.createdAt == expected.createdAt, "\(what): createdAt changed")
        try expect(actual.passwordChangedAt == expected.passwordChangedAt, "\(what): passwordChangedAt changed")
        try expect(actual.failedLoginCount == expected.failedLoginCount, "\(what): failedLoginCount changed")
        try expect(actual.lastFailedLoginAt == expected.lastFailedLoginAt, "\(what): lastFailedLoginAt changed")
        try expect(actual.isBlocked == expected.isBlocked, "\(what): isBlocked changed")
        try expect(actual.mustChangePassword == expected.mustChangePassword, "\(what): mustChangePassword changed")
        try expect(actual.emailVerifiedAt == expected.emailVerifiedAt, "\(what): emailVerifiedAt changed")
        if let number = expected.number {
            try expect(
                actual.number == number,
                "\(what): number \(number) came back as \(actual.number.map(String.init) ?? "none")")
        } else {
            try expect((actual.number ?? 0) > 0, "\(what): the store gave no positive number")
        }
    }
}
