import AccountBackendKit
import AccountCore

/// Random sequences of every repository operation, each answer compared with the
/// ``ContractModel``'s: the clashes and orders that hand-written checks do not think of (a
/// re-inserted user, a session touched backwards, a revocation that keeps a session of
/// another user). The sequences are fixed by their seeds, so a failure repeats.
enum SequenceChecks {
    /// The seeds the suite runs; a failure names the seed and the step.
    static let seeds: [UInt64] = [0x5EED_0001, 0x5EED_0002, 0x5EED_0003]
    static let stepsPerSeed = 200

    static let all: [ConformanceCheck] = [
        ConformanceCheck("random sequences of every operation answer as the contract's model does") { context in
            var store = try await context.open()
            var model = ContractModel()
            for seed in seeds { try await runSequence(seed, on: &store, model: &model, reopening: false, context) }
            try context.expect(try await store.integrityCheck() == ["ok"], "the sequences left the store inconsistent")
            try await store.close()
        },
        ConformanceCheck(
            "random sequences with the store closed and reopened between steps answer as the model does",
            requires: .survivesReopen
        ) { context in
            var store = try await context.open()
            var model = ContractModel()
            try await runSequence(0x5EED_0004, on: &store, model: &model, reopening: true, context)
            try await store.close()
        },
    ]

    /// `stepsPerSeed` steps of `seed`. The whole store is compared with the model every 10
    /// steps; when `reopening`, every 20 steps instead, right after closing and opening it again.
    private static func runSequence(
        _ seed: UInt64, on store: inout any UserRepository, model: inout ContractModel, reopening: Bool,
        _ context: ConformanceContext
    ) async throws {
        var generator = SequenceGenerator(seed: seed)
        var done: [String] = []
        for index in 1...stepsPerSeed {
            let step = generator.next(after: model)
            try await run(step, on: store, against: &model, context) { expected, actual in
                "seed \(seed), step \(index), \(step.name): the contract's model answers \(expected), "
                    + "the backend \(actual); the steps before: \(done.suffix(8).joined(separator: "; "))"
            }
            done.append(step.name)
            var at: String { "seed \(seed), step \(index) (\(done.suffix(10).joined(separator: "; ")))" }
            if reopening, index % 20 == 0 {
                try await store.close()
                store = try await context.open()
                try await expectSameState(store, model, context, after: "reopening at \(at)")
            } else if !reopening, index % 10 == 0 {
                try await expectSameState(store, model, context, after: at)
            }
        }
    }

    private static func run(
        _ step: SequenceStep, on store: any UserRepository, against model: inout ContractModel,
        _ context: ConformanceContext, failure: (String, String) -> String
    ) async throws {
        let expected: String
        do { expected = try step.model(&model) } catch { expected = "error \(error.code)" }
        let actual: String
        do {
            actual = try await step.store(store)
        } catch let error as AccountError {
            actual = "error \(error.code)"
        } catch {
            throw ConformanceFailure(failure(expected, "a non-typed error: \(error)"))
        }
        try context.expect(actual == expected, failure(expected, actual))
    }

    /// Every record the pools can name, read back and compared with the model's.
    private static func expectSameState(
        _ store: any UserRepository, _ model: ContractModel, _ context: ConformanceContext, after what: String
    ) async throws {
        let users = try await store.users(after: nil, limit: 1_000)
        let expected = model.users(after: nil, limit: 1_000)
        try context.expect(users == expected, "after \(what): the store lists \(users), the model \(expected)")
        for n in SequenceGenerator.idPool {
            let sessions = try await store.sessions(userID: Fixtures.id(n))
            let expected = model.sessions(userID: Fixtures.id(n))
            try context.expect(
                sessions == expected, "after \(what): user \(n)'s sessions are \(sessions), the model's \(expected)")
        }
        for n in SequenceGenerator.sessionPool {
            let session = try await store.session(tokenHash: Fixtures.tokenHash(n))
            let expected = model.session(tokenHash: Fixtures.tokenHash(n))
            try context.expect(
                session == expected,
                "after \(what): session \(n) is \(String(describing: session)), not \(String(describing: expected))")
        }
    }
}

/// One operation, as the model and as a backend run it, each answer written out the same way.
struct SequenceStep {
    let name: String
    let model: (inout ContractModel) throws(AccountError) -> String
    let store: @Sendable (any UserRepository) async throws -> String

    /// Both sides answer the same type, written out the same way.
    init<Answer>(
        _ name: String, model: @escaping (inout ContractModel) throws(AccountError) -> Answer,
        store: @escaping @Sendable (any UserRepository) async throws -> Answer
    ) {
        self.name = name
        self.model = { (state) throws(AccountError) in String(describing: try model(&state)) }
        self.store = { String(describing: try await store($0)) }
    }
}

/// Picks operations over small pools of ids, emails and token hashes, so that clashes are
/// common, with a clock that moves forward by 0–2 ms a step (equal times happen too).
struct SequenceGenerator {
    static let idPool = 1...6
    static let emailPool = 1...6
    static let sessionPool = 1...10

    private var random: SplitMix64
    private var clock: Int64 = 0
    private var counter = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private var now: Timestamp { Timestamp(millisecondsSince1970: 1_700_000_000_000 + clock) }

    /// The model's records, sorted so that a seed picks the same ones on every run.
    private var storedIDs: [UserID] = []
    private var storedHashes: [String] = []
    /// The password hashes a user has or had: the fixtures' own, then each one a change set.
    private var passwordHashes = [Fixtures.passwordHash]

    /// Half the time one that is stored, so that operations find records as often as not.
    private mutating func id() -> UserID {
        if !storedIDs.isEmpty, Bool.random(using: &random) { return storedIDs.randomElement(using: &random)! }
        return Fixtures.id(Int.random(in: Self.idPool, using: &random))
    }
    /// A password hash a user has or had: the fixtures' own, or one a change in this sequence set.
    private mutating func passwordHash() -> String { passwordHashes.randomElement(using: &random)! }
    private mutating func email() -> String { Fixtures.email(Int.random(in: Self.emailPool, using: &random)) }
    private mutating func tokenHash() -> String {
        if !storedHashes.isEmpty, Bool.random(using: &random) { return storedHashes.randomElement(using: &random)! }
        return Fixtures.tokenHash(Int.random(in: Self.sessionPool, using: &random))
    }

    private mutating func user() -> UserRecord {
        counter += 1
        let nickname =
            Bool.random(using: &random)
            ? Fixtures.hostileNicknames[counter % Fixtures.hostileNicknames.count] : "nïck \(counter)"
        // A third of them arrive with an account state, as an import brings them.
        let stated = Int.random(in: 0..<3, using: &random) == 0
        return UserRecord(
            id: id(), email: email(), nickname: nickname, passwordHash: Fixtures.passwordHash, createdAt: now,
            isBlocked: stated && Bool.random(using: &random), mustChangePassword: stated && Bool.random(using: &random),
            emailVerifiedAt: stated && Bool.random(using: &random) ? now : nil)
    }

    /// One of a few keys, so that values are replaced and removed as often as set.
    private mutating func valueKey() -> String {
        ["import:a", "import:b", "checkpoint"].randomElement(using: &random)!
    }

    private mutating func session(of user: UserID) -> SessionRecord {
        SessionRecord(
            tokenHash: tokenHash(), userID: user, createdAt: now, lastSeenAt: now,
            expiresAt: now.adding(seconds: 3_600), idleTimeoutSeconds: 600, remember: Bool.random(using: &random))
    }

    private static func short(_ id: UserID) -> String { String(id.rawValue.drop { $0 == "0" }) }
    private static func short(email: String) -> String { String(email.prefix { $0 != "@" }) }
    private static func short(hash: String) -> String { "…" + hash.suffix(2) }

    /// The next operation, picked with `model`'s records in mind.
    mutating func next(after model: ContractModel) -> SequenceStep {
        storedIDs = model.usersByID.keys.sorted { $0.rawValue < $1.rawValue }
        storedHashes = model.sessionsByHash.keys.sorted()
        clock += Int64.random(in: 0...2, using: &random)
        switch Int.random(in: 0..<112, using: &random) {
        case 0..<14:
            let user = user()
            let session = Bool.random(using: &random) ? session(of: user.id) : nil
            return SequenceStep(
                "createUser(id \(Self.short(user.id)), \(Self.short(email: user.email)), session \(session.map { Self.short(hash: $0.tokenHash) } ?? "none"))",
                model: { (model) throws(AccountError) in try model.createUser(user, initialSession: session) },
                store: { try await $0.createUser(user, initialSession: session) })
        case 14..<20:
            let users = (0..<Int.random(in: 1...3, using: &random)).map { _ in user() }
            let sessions = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                session(of: Bool.random(using: &random) ? users.randomElement(using: &random)!.id : id())
            }
            return SequenceStep(
                "createUsers(\(users.map { "\(Self.short($0.id))/\(Self.short(email: $0.email))" }), sessions \(sessions.map { "\(Self.short(hash: $0.tokenHash)) of \(Self.short($0.userID))" }))",
                model: { (model) throws(AccountError) in try model.createUsers(users, sessions: sessions) },
                store: { try await $0.createUsers(users, sessions: sessions) })
        case 20..<26:
            let email = email()
            return SequenceStep(
                "user(email: \(Self.short(email: email)))", model: { $0.user(email: email) },
                store: { try await $0.user(email: email) })
        case 26..<30:
            let id = id()
            return SequenceStep(
                "user(id: \(Self.short(id)))", model: { $0.user(id: id) }, store: { try await $0.user(id: id) })
        case 30..<32:
            return SequenceStep("userCount()", model: { $0.userCount }, store: { try await $0.userCount() })
        case 32..<36:
            let after = Bool.random(using: &random) ? email() : nil
            let limit = Int.random(in: 1...4, using: &random)
            return SequenceStep(
                "users(after: \(after.map { Self.short(email: $0) } ?? "nil"), limit: \(limit))",
                model: { $0.users(after: after, limit: limit) },
                store: { try await $0.users(after: after, limit: limit) })
        case 36..<42:
            let id = id()
            counter += 1
            let hash = Fixtures.passwordHash + "\(counter)"
            let expected = Bool.random(using: &random) ? nil : passwordHash()
            passwordHashes.append(hash)
            let changedAt = now
            let revoking: SessionRevocation = [.none, .all, .allExcept(tokenHash: tokenHash())][
                Int.random(in: 0...2, using: &random)]
            return SequenceStep(
                "updatePassword(\(Self.short(id)), revoking \(revoking), if \(expected.map { String($0.suffix(3)) } ?? "any"))",
                model: {
                    $0.updatePassword(
                        userID: id, passwordHash: hash, changedAt: changedAt, revoking: revoking,
                        ifPasswordHashIs: expected)
                },
                store: {
                    try await $0.updatePassword(
                        userID: id, passwordHash: hash, changedAt: changedAt, revoking: revoking,
                        ifPasswordHashIs: expected)
                })
        case 42..<48:
            let id = id()
            let time = now
            return SequenceStep(
                "recordLoginFailure(\(Self.short(id)))", model: { $0.recordLoginFailure(userID: id, at: time) },
                store: { try await $0.recordLoginFailure(userID: id, at: time) })
        case 48..<51:
            let id = id()
            return SequenceStep(
                "resetLoginFailures(\(Self.short(id)))", model: { $0.resetLoginFailures(userID: id) },
                store: { try await $0.resetLoginFailures(userID: id) })
        case 51..<56:
            let id = id()
            return SequenceStep(
                "deleteUser(\(Self.short(id)))", model: { $0.deleteUser(id: id) },
                store: { try await $0.deleteUser(id: id) })
        case 56..<66:
            let session = session(of: id())
            let password = passwordHash()
            return SequenceStep(
                "createSession(\(Self.short(hash: session.tokenHash)) of \(Self.short(session.userID)), if \(password.suffix(3)))",
                model: { (model) throws(AccountError) in try model.createSession(session, ifPasswordHashIs: password) },
                store: { try await $0.createSession(session, ifPasswordHashIs: password) })
        case 66..<72:
            let hash = tokenHash()
            return SequenceStep(
                "session(\(Self.short(hash: hash)))", model: { $0.session(tokenHash: hash) },
                store: { try await $0.session(tokenHash: hash) })
        case 72..<78:
            let hash = tokenHash()
            return SequenceStep(
                "signedIn(\(Self.short(hash: hash)))",
                model: { model in model.session(tokenHash: hash).map { ($0, model.user(id: $0.userID)) } },
                store: { try await $0.signedIn(tokenHash: hash).map { ($0.session, $0.user) } })
        case 78..<82:
            let id = id()
            return SequenceStep(
                "sessions(userID: \(Self.short(id)))", model: { $0.sessions(userID: id) },
                store: { try await $0.sessions(userID: id) })
        case 82..<89:
            let hash = tokenHash()
            // Half of them late: a request that started before the session's last use.
            let offset =
                Bool.random(using: &random)
                ? Int64.random(in: 0...2, using: &random) : -Int64.random(in: 1...60, using: &random)
            let time = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + offset)
            return SequenceStep(
                "touchSession(\(Self.short(hash: hash)), \(offset) ms from now)",
                model: { $0.touchSession(tokenHash: hash, lastSeenAt: time) },
                store: { try await $0.touchSession(tokenHash: hash, lastSeenAt: time) })
        case 89..<96:
            let hash = tokenHash()
            return SequenceStep(
                "deleteSession(\(Self.short(hash: hash)))", model: { $0.deleteSession(tokenHash: hash) },
                store: { try await $0.deleteSession(tokenHash: hash) })
        case 100..<104:
            let id = id()
            let blocked = Bool.random(using: &random)
            return SequenceStep(
                "setBlocked(\(Self.short(id)), \(blocked))", model: { $0.setBlocked(userID: id, blocked) },
                store: { try await $0.setBlocked(userID: id, blocked) })
        case 104..<107:
            let id = id()
            let time = Bool.random(using: &random) ? now : nil
            return SequenceStep(
                "setEmailVerified(\(Self.short(id)), \(time == nil ? "nil" : "now"))",
                model: { $0.setEmailVerified(userID: id, at: time) },
                store: { try await $0.setEmailVerified(userID: id, at: time) })
        case 107..<110:
            let key = valueKey()
            counter += 1
            let value = Bool.random(using: &random) ? "v\(counter) ✓" : nil
            return SequenceStep(
                "setStoreValue(\(value ?? "nil"), forKey: \(key))",
                model: { $0.setStoreValue(value, forKey: key) },
                store: { try await $0.setStoreValue(value, forKey: key) })
        case 110..<112:
            let key = valueKey()
            return SequenceStep(
                "storeValue(forKey: \(key))", model: { $0.storeValue(forKey: key) },
                store: { try await $0.storeValue(forKey: key) })
        default:
            // The contract never leaves a session without its user.
            return SequenceStep(
                "deleteOrphanedSessions()", model: { _ in 0 }, store: { try await $0.deleteOrphanedSessions() })
        }
    }
}
