public import AccountCore

/// A fixed data set (hostile nicknames, every optional field both ways, every account state,
/// sessions of both kinds) that a store of any backend and any format version must read back
/// exactly.
///
/// Committed fixture stores of older formats are made from it, so a future format can prove
/// that it still reads (or migrates) what an old build wrote.
public enum ReferenceData {
    /// The users, in email order.
    public static let users: [UserRecord] = Fixtures.hostileNicknames.enumerated().map { index, nickname in
        var user = Fixtures.user(index + 1, nickname: nickname)
        user.failedLoginCount = index % 4
        user.lastFailedLoginAt =
            index % 4 == 0 ? nil : Timestamp(millisecondsSince1970: 1_700_000_500_000 + Int64(index))
        user.passwordChangedAt = Timestamp(millisecondsSince1970: 1_700_000_900_000 + Int64(index))
        // The users with sessions (the first three) are never blocked: a blocked account has none.
        user.isBlocked = index >= 3 && index % 3 == 0
        user.mustChangePassword = index % 4 == 1
        user.emailVerifiedAt =
            index.isMultiple(of: 2) ? Timestamp(millisecondsSince1970: 1_700_000_700_000 + Int64(index)) : nil
        return user
    }

    /// Two sessions for each of the first three users: one plain, one remembered.
    public static let sessions: [SessionRecord] = users.prefix(3).enumerated().flatMap { index, user in
        [
            Fixtures.session(index * 2 + 1, user: user.id),
            Fixtures.session(index * 2 + 2, user: user.id, remember: true),
        ]
    }

    /// Writes the data set into an empty store.
    public static func populate(_ store: any UserRepository) async throws {
        for user in users { try await store.createUser(user, initialSession: nil) }
        for session in sessions {
            guard try await store.createSession(session, ifPasswordHashIs: Fixtures.passwordHash) else {
                throw ConformanceFailure("a reference session was refused")
            }
        }
    }

    /// The users an import keeps: those that meet every rule of stored accounts (the others are
    /// here to prove that backends store any text verbatim; an import refuses them).
    public static var storable: [UserRecord] { users.filter(\.brokenRules.isEmpty) }

    /// Fails unless `store` holds exactly the data set, byte for byte, or just the users `kept`
    /// and their sessions. `namingDevices: false` expects sessions without their device names,
    /// as a store written before sessions named their device reads; `keepingState: false`
    /// expects every account active, with its own password and no proven email, as a store
    /// written before accounts kept their state reads.
    public static func verify(
        _ store: any UserRepository, holding kept: [UserRecord] = users, namingDevices: Bool = true,
        keepingState: Bool = true
    ) async throws {
        let probe = Probe()
        let kept =
            keepingState
            ? kept
            : kept.map { user in
                var stateless = user
                (stateless.isBlocked, stateless.mustChangePassword, stateless.emailVerifiedAt) = (false, false, nil)
                return stateless
            }
        let keptIDs = Set(kept.map(\.id))
        let sessions = sessions.filter { keptIDs.contains($0.userID) }.map { session in
            var expected = session
            if !namingDevices { expected.device = "" }
            return expected
        }
        try probe.expect(try await store.userCount() == kept.count, "the store does not hold \(kept.count) users")
        let listed = try await store.users(after: nil, limit: kept.count + 1)
        try probe.expect(listed.map(\.email) == kept.map(\.email).sorted(), "users are not listed in email order")
        for user in kept {
            try probe.expectIdentical(try await store.user(email: user.email), user, "reference user by email")
            try probe.expectIdentical(try await store.user(id: user.id), user, "reference user by id")
            let expected = sessions.filter { $0.userID == user.id }.sorted { $0.tokenHash < $1.tokenHash }
            try probe.expect(try await store.sessions(userID: user.id) == expected, "sessions of \(user.email) differ")
        }
        for session in sessions {
            try probe.expect(
                try await store.session(tokenHash: session.tokenHash) == session, "a reference session differs")
        }
    }
}

/// The assertions without a check around them.
private struct Probe: ConformanceExpecting {}
