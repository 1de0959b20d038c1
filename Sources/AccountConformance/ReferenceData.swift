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

    /// What the flows keep (format 5 on): a session of the fourth user refreshed once, a code
    /// of each purpose, a mail waiting, and an identity at an outside provider.
    static let refreshed = Fixtures.session(7, user: users[3].id)
    /// The sessions a transfer carries: `sessions`, and the one a refresh renewed.
    public static var carriedSessions: [SessionRecord] { sessions + [renewed] }
    static var renewed: SessionRecord {
        var renewed = Fixtures.session(8, user: users[3].id)
        renewed.family = refreshed.family
        return renewed
    }
    static let rotatedAt = Timestamp(millisecondsSince1970: 1_700_000_600_000)
    static let codes = [OneTimeCode.Purpose.passwordReset, .emailVerification].enumerated().map { index, purpose in
        OneTimeCode(
            codeHash: Fixtures.tokenHash(200 + index), userID: users[index].id, purpose: purpose,
            createdAt: Timestamp(millisecondsSince1970: 1_700_000_700_000),
            expiresAt: Timestamp(millisecondsSince1970: 1_700_004_300_000))
    }
    static let mail = OutboxMail(
        id: String(repeating: "9", count: 32), kind: "email_verification", recipient: users[1].email, language: "ko",
        payload: "sealed \u{1} ✓", createdAt: Timestamp(millisecondsSince1970: 1_700_000_800_000), attempts: 2,
        notBefore: Timestamp(millisecondsSince1970: 1_700_000_900_000), lastError: "421 4.3.0 try later")
    static let identity = ProviderIdentity(
        provider: "github", subject: "583231", userID: users[2].id, email: "octocat@example.com",
        linkedAt: Timestamp(millisecondsSince1970: 1_700_001_000_000))

    /// Writes the data set into an empty store.
    public static func populate(_ store: any UserRepository) async throws {
        for user in users { try await store.createUser(user, initialSession: nil) }
        for session in sessions + [refreshed] {
            guard try await store.createSession(session, ifPasswordHashIs: Fixtures.passwordHash) else {
                throw ConformanceFailure("a reference session was refused")
            }
        }
        guard
            try await store.rotateSession(
                tokenHash: refreshed.tokenHash, to: renewed, ifPasswordHashIs: Fixtures.passwordHash, at: rotatedAt)
        else { throw ConformanceFailure("the reference refresh was refused") }
        for code in codes {
            guard try await store.replaceCode(code) else { throw ConformanceFailure("a reference code was refused") }
        }
        try await store.enqueueMail(mail)
        guard try await store.linkIdentity(identity) else { throw ConformanceFailure("the identity was refused") }
    }

    /// Which of the flows' records a store is expected to hold.
    public enum FlowRecords: Sendable {
        /// None: a store written before format 5, or a copy of one.
        case none
        /// What a transfer carries: the refreshed session with its family, and the identity.
        case carried
        /// Everything `populate` wrote: also the replaced token, the codes and the mail.
        case all
    }

    /// Fails unless `store` holds the flows' records `flows` names, and none of the others.
    static func verifyFlows(_ store: any UserRepository, _ flows: FlowRecords, kept keptIDs: Set<UserID>) async throws {
        let probe = Probe()
        let identity = flows != .none && keptIDs.contains(identity.userID) ? [identity] : []
        try probe.expect(try await store.identities(userID: Self.identity.userID) == identity, "the identity")
        let all = flows == .all
        let rotated =
            all
            ? RotatedToken(
                tokenHash: refreshed.tokenHash, userID: refreshed.userID, family: refreshed.family,
                rotatedAt: rotatedAt, expiresAt: refreshed.expiresAt) : nil
        try probe.expect(try await store.rotatedToken(tokenHash: refreshed.tokenHash) == rotated, "the rotated token")
        for code in codes {
            try probe.expect(try await store.code(hash: code.codeHash) == (all ? code : nil), "a reference code")
        }
        try probe.expect(
            try await store.dueMail(at: Timestamp(millisecondsSince1970: .max), limit: 10) == (all ? [mail] : []),
            "the mail")
    }

    /// The users an import keeps: those that meet every rule of stored accounts (the others are
    /// here to prove that backends store any text verbatim; an import refuses them).
    public static var storable: [UserRecord] { users.filter(\.brokenRules.isEmpty) }

    /// Fails unless `store` holds exactly the data set, byte for byte, or just the users `kept`
    /// and their sessions. `namingDevices: false` expects sessions without their device names,
    /// as a store written before sessions named their device reads; `keepingState: false`
    /// expects every account active, with its own password and no proven email, as a store
    /// written before accounts kept their state reads; `flows` says which of the flows' records
    /// it holds.
    public static func verify(
        _ store: any UserRepository, holding kept: [UserRecord] = users, namingDevices: Bool = true,
        keepingState: Bool = true, flows: FlowRecords = .all
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
        let sessions = (sessions + (flows == .none ? [] : [renewed])).filter { keptIDs.contains($0.userID) }.map {
            session in
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
        try await verifyFlows(store, flows, kept: keptIDs)
    }
}

/// The assertions without a check around them.
private struct Probe: ConformanceExpecting {}
