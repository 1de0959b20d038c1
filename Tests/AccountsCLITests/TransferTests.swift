import AccountBackendKit
import AccountConformance
import AccountCore
import AccountCrypto
import AccountOperations
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Synchronization
import Testing

/// Data follows a deployment: export, import and migrate between every pair of backends.
@Suite("Transfer")
struct TransferTests {
    static let backends = BackendRegistry.embedded.descriptors
    static let pairs = backends.flatMap { from in backends.filter { $0.name != from.name }.map { (from, $0) } }

    func open(_ backend: any BackendDescriptor, _ folder: String, _ name: String) async throws -> any UserRepository {
        try await backend.open(PostgresTestServer.configuration(backend, folder: folder, name: name))
    }

    func service(_ store: any UserRepository) -> AccountService {
        AccountService(
            repository: store, hasher: Argon2idPasswordHasher.fastForTests, strength: ZxcvbnStrengthEstimator(),
            digester: SHA256TokenDigester(), random: SodiumRandomSource())
    }

    /// `store`'s export, line by line, stamped at time zero.
    static func exportLines(
        _ store: any UserRepository, from backend: String, withSessions: Bool = true
    ) async throws -> [String] {
        var lines: [String] = []
        _ = try await StoreExporter.export(
            store, sourceBackend: backend, withSessions: withSessions, now: Timestamp(millisecondsSince1970: 0)
        ) { lines.append($0) }
        return lines
    }

    /// `inner`, into which `intruder` is signed up once, just before the first batch is
    /// written: between a migration's empty-target check and its first page, as another
    /// writer would.
    static func intruding(_ inner: any UserRepository, _ intruder: UserRecord) -> ObservedRepository {
        let intruded = Mutex(false)
        return ObservedRepository(inner) { call in
            guard call == "createUsers",
                intruded.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else {
                return
            }
            try await inner.createUser(intruder, initialSession: nil)
        }
    }

    /// Writes `lines` as an export file does: each ends with a newline.
    static func write(_ lines: some Sequence<String>, to path: String) throws {
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("migrate copies users and sessions, verifies, and old passwords log in", arguments: pairs)
    func migrate(_ from: any BackendDescriptor, _ to: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("migrate-\(from.name)-\(to.name)")
        try await checkMigration(from, to, in: scratch.path)
    }

    @Test(
        "migrate between PostgreSQL and an embedded backend, both ways, and old passwords log in",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)),
        arguments: BackendRegistry.embedded.descriptors)
    func migratePostgres(_ embedded: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("migrate-postgres-\(embedded.name)")
        let folders = [scratch.path + "/out", scratch.path + "/in"]
        try await PostgresTestServer.run(
            {
                try await checkMigration(Backends.postgres, embedded, in: folders[0])
                try await checkMigration(embedded, Backends.postgres, in: folders[1])
            },
            thenCleanUp: {
                for folder in folders { await PostgresTestServer.cleanUp(Backends.postgres, folder: folder) }
            })
    }

    /// Migrates a store holding a signed-in user and the reference data, then checks the copy.
    func checkMigration(_ from: any BackendDescriptor, _ to: any BackendDescriptor, in folder: String) async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = try await open(from, folder, "source-" + from.defaultStoreName)
        let signedIn = try await service(source).signUp(
            email: "leesoon7@example.com", password: "Tangerine-Kayak-42", confirmation: "Tangerine-Kayak-42",
            nickname: "이순신")
        try await ReferenceData.populate(source)
        // The user with the highest number withdraws: the target must never give that number.
        let leaver = try await service(source).signUp(
            email: "leaver@example.com", password: "Tangerine-Kayak-42", confirmation: "Tangerine-Kayak-42",
            nickname: "떠나는 사람")
        try await service(source).withdraw(token: leaver.token, password: "Tangerine-Kayak-42")
        let target = try await open(to, folder, "target-" + to.defaultStoreName)
        let summary = try await StoreMigrator.migrate(from: source, to: target)
        #expect(summary.users == ReferenceData.users.count + 1)
        #expect(summary.sessions == ReferenceData.carriedSessions.count + 1)
        // The digests cover every user's number.
        #expect(try await StoreExporter.digest(target) == StoreExporter.digest(source))
        #expect(try await target.lastUserNumber() == leaver.profile.number)
        let next = try await service(target).signUp(
            email: "newcomer@example.com", password: "Tangerine-Kayak-42", confirmation: "Tangerine-Kayak-42",
            nickname: "새사람")
        #expect(next.profile.number == leaver.profile.number + 1, "the withdrawn user's number was given again")
        let login = try await service(target).login(
            email: "leesoon7@example.com", password: "Tangerine-Kayak-42", remember: false)
        #expect(login.profile.id == signedIn.profile.id)
        #expect(
            try await service(target).sessions.whoami(token: signedIn.token).nickname == "이순신", "sessions came along")
        let again = await accountError { _ = try await StoreMigrator.migrate(from: source, to: target) }
        #expect(again?.code == "store_not_empty")
        try await source.close()
        try await target.close()
    }

    @Test("a user another process adds to the target mid-migration stops it, and the error says what was copied")
    func intrudedMigration() async throws {
        let scratch = try ScratchFolder("migrate-intruded")
        let source = try await open(Backends.sqlite, scratch.path, "source.sqlite")
        try await ReferenceData.populate(source)
        let inner = try await open(Backends.lmdb, scratch.path, "target.lmdb")
        // Numbered past the source's users, as by an import: only its email clashes.
        let intruder = UserRecord(
            id: UserID(rawValue: String(repeating: "e", count: 32)), email: ReferenceData.users[1].email,
            nickname: "intruder", passwordHash: "$keep$", createdAt: Timestamp(millisecondsSince1970: 9),
            number: 1_000)
        let target = Self.intruding(inner, intruder)
        let error = await accountError { _ = try await StoreMigrator.migrate(from: source, to: target) }
        let message = error?.message(.english) ?? ""
        #expect(error?.code == "store_not_empty")
        #expect(!message.contains("nothing was written"), "the page's other users were stored: \(message)")
        let copied = ReferenceData.users.count - 1
        #expect(
            message.contains("1 user appeared in the target during the migration, which had copied \(copied) users"))
        #expect(try await inner.userCount() == copied + 1, "the copied users and the intruder")
        #expect(try await inner.user(email: intruder.email) == intruder, "the intruder was not overwritten")
        try await source.close()
        try await inner.close()
    }

    @Test(
        "a user another process signs up in the target mid-migration takes a number of the page: the page is refused whole, and the error says so"
    )
    func intrudedMigrationNumber() async throws {
        let scratch = try ScratchFolder("migrate-intruded-number")
        let source = try await open(Backends.sqlite, scratch.path, "source.sqlite")
        try await ReferenceData.populate(source)
        let inner = try await open(Backends.json, scratch.path, "target.json")
        let intruder = UserRecord(
            id: UserID(rawValue: String(repeating: "e", count: 32)), email: "intruder@example.com",
            nickname: "intruder", passwordHash: "$keep$", createdAt: Timestamp(millisecondsSince1970: 9))
        let target = Self.intruding(inner, intruder)
        let error = await accountError { _ = try await StoreMigrator.migrate(from: source, to: target) }
        #expect(error?.code == "store_not_empty")
        #expect(
            error?.message(.english).contains(
                "1 user appeared in the target during the migration, which had copied 0 users into it by then (this page of \(ReferenceData.users.count) was not written)"
            ) == true, "\(error?.message(.english) ?? "")")
        #expect(try await inner.userCount() == 1, "only the intruder")
        #expect(try await inner.user(email: intruder.email)?.number == 1)
        try await source.close()
        try await inner.close()
    }

    @Test("export then import round-trips every byte between backends", arguments: pairs)
    func exportImport(_ from: any BackendDescriptor, _ to: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("export-\(from.name)-\(to.name)")
        let source = try await open(from, scratch.path, "source-" + from.defaultStoreName)
        try await ReferenceData.populate(source)
        let file = scratch.path + "/export.jsonl"
        try Self.write(try await Self.exportLines(source, from: from.name), to: file)
        let target = try await open(to, scratch.path, "target-" + to.defaultStoreName)
        // The reference data holds records no import may store (control characters, a 2,000-
        // character nickname): refused without --skip-invalid, left out with it.
        let refusal = await accountError { _ = try StoreImporter.validate(file) }
        #expect(refusal?.code == "invalid_export" && refusal?.message(.english).contains("nothing was written") == true)
        let validated = try StoreImporter.validate(file, skippingInvalid: true)
        let kept = ReferenceData.storable
        #expect(validated.refused.map(\.user.unnumbered) == ReferenceData.users.filter { !$0.brokenRules.isEmpty })
        #expect(kept.count >= 2 && validated.refused.count >= 2, "both kinds are in the data set")
        let report = try await StoreImporter.importFile(validated, into: target, merge: false)
        let keptIDs = Set(kept.map(\.id))
        #expect(report.imported == kept.count)
        #expect(report.sessions == ReferenceData.carriedSessions.filter { keptIDs.contains($0.userID) }.count)
        try await ReferenceData.verify(target, holding: kept, flows: .carried)
        for user in kept {
            #expect(try await target.user(id: user.id)?.number == source.user(id: user.id)?.number, "a number changed")
        }
        #expect(try await target.lastUserNumber() == source.lastUserNumber())
        try await source.close()
        try await target.close()
    }

    @Test(
        "an import of several batches keeps every user's sessions, the batch's last user's too",
        arguments: backends)
    func importAcrossBatches(_ backend: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("import-batches-\(backend.name)")
        // Two full batches and one more user: the session line of a batch's last user follows
        // the user line that fills the batch.
        let count = 2_001
        let (users, sessions) = Self.guests(count)
        let source = try await open(backend, scratch.path, "source-" + backend.defaultStoreName)
        #expect(try await source.createUsers(users, sessions: sessions).isEmpty)
        let lines = try await Self.exportLines(source, from: backend.name)
        let file = scratch.path + "/export.jsonl"
        try Self.write(lines, to: file)
        let target = try await open(backend, scratch.path, "target-" + backend.defaultStoreName)
        let report = try await StoreImporter.importFile(try StoreImporter.validate(file), into: target, merge: false)
        #expect(report.imported == count)
        #expect(report.sessions == count, "every session is imported and counted")
        // Every user and session line comes back the same (the header names the store, and the
        // trailer's digest covers the header).
        #expect(
            try await Self.exportLines(target, from: backend.name).dropFirst().dropLast()
                == lines.dropFirst().dropLast())
        try await source.close()
        try await target.close()
    }

    /// `count` users, each with one session, in ascending email order.
    static func guests(_ count: Int) -> (users: [UserRecord], sessions: [SessionRecord]) {
        let random = SeededRandom()
        let users = (1...count).map { index in
            UserRecord(
                id: .random(using: random), email: "guest\(1_000_000 + index)@example.com", nickname: "손님",
                passwordHash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
                createdAt: Timestamp(millisecondsSince1970: 1_000))
        }
        let sessions = users.map { user in
            SessionRecord(
                tokenHash: random.hex(32), userID: user.id, createdAt: Timestamp(millisecondsSince1970: 1_000),
                lastSeenAt: Timestamp(millisecondsSince1970: 1_000), expiresAt: Timestamp(millisecondsSince1970: 9_000),
                idleTimeoutSeconds: 3_600, remember: false)
        }
        return (users, sessions)
    }

    @Test(
        "an export changed after it was checked is reported so, with what had been imported, never as nothing written",
        arguments: [1, 2_001])
    func changedAfterValidation(users count: Int) async throws {
        let scratch = try ScratchFolder("changed-export-\(count)")
        let source = try await open(Backends.sqlite, scratch.path, "source.sqlite")
        let (users, sessions) = Self.guests(count)
        #expect(try await source.createUsers(users, sessions: sessions).isEmpty)
        let lines = try await Self.exportLines(source, from: "sqlite")
        try await source.close()
        let path = scratch.path + "/export.jsonl"
        try Self.write(lines, to: path)
        let validated = try StoreImporter.validate(path)
        // Replaced between the check and the import: the trailer is gone.
        try Self.write(lines.dropLast(), to: path)
        let target = try await open(Backends.sqlite, scratch.path, "target.sqlite")
        let error = await accountError { _ = try await StoreImporter.importFile(validated, into: target, merge: false) }
        let message = error?.message(.english) ?? ""
        #expect(error?.code == "invalid_export")
        #expect(
            message.contains(
                "the file ends without its trailer line (truncated); the file changed after it was checked"))
        // A batch of 1,000 is written when the next user starts: 2,000 of 2,001 were stored.
        let stored = try await target.userCount()
        #expect(stored == (count / 1_000) * 1_000)
        if stored == 0 {
            #expect(message.hasSuffix("; nothing was written"), "\(message)")
        } else {
            #expect(!message.contains("nothing was written"), "\(message)")
            #expect(
                message.contains("\(stored) users and \(stored) sessions had been imported before this failure"),
                "\(message)")
        }
        // The same outcomes, said in Korean for an operator who reads Korean.
        let outcomes: [ErrorOutcome] = [
            .fileChangedAfterCheck,
            stored == 0
                ? .nothingWritten : .importedBeforeFailure(users: stored, sessions: stored, batchInFlight: nil),
        ]
        guard case .invalidExport(let detail)? = error else {
            Issue.record("not invalid_export: \(String(describing: error))")
            return
        }
        #expect(detail.outcomes == outcomes)
        let korean = error?.message(.korean) ?? ""
        #expect(korean.contains("; 검사한 뒤에 파일이 바뀌었습니다; "), "\(korean)")
        #expect(
            korean.hasSuffix(
                stored == 0
                    ? "; 아무것도 쓰지 않았습니다"
                    : "이 실패 전에 사용자 \(stored)명과 세션 \(stored)개를 가져왔습니다; 같은 가져오기를 다시 실행하면 멈춘 곳부터 번호를 그대로 지키며 이어 가져옵니다 (이미 있는 것은 그대로 둡니다)"
            ), "\(korean)")
        try await target.close()
    }

    @Test("an export emptied after it was checked is reported so, and nothing is written")
    func emptiedAfterValidation() async throws {
        let scratch = try ScratchFolder("emptied-export")
        let source = try await open(Backends.sqlite, scratch.path, "source.sqlite")
        let (users, sessions) = Self.guests(3)
        #expect(try await source.createUsers(users, sessions: sessions).isEmpty)
        let path = scratch.path + "/export.jsonl"
        try Self.write(try await Self.exportLines(source, from: "sqlite"), to: path)
        try await source.close()
        let validated = try StoreImporter.validate(path)
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        let target = try await open(Backends.sqlite, scratch.path, "target.sqlite")
        let error = await accountError { _ = try await StoreImporter.importFile(validated, into: target, merge: false) }
        #expect(error?.code == "invalid_export")
        guard case .invalidExport(let detail)? = error else { return }
        #expect(detail.outcomes == [.fileChangedAfterCheck, .nothingWritten], "\(detail)")
        #expect(try await target.userCount() == 0)
        try await target.close()
    }

    @Test("a truncated, edited, reordered or foreign export is refused before anything is written")
    func badExports() async throws {
        let scratch = try ScratchFolder("bad-export")
        let source = try await open(Backends.json, scratch.path, "source.json")
        try await ReferenceData.populate(source)
        let lines = try await Self.exportLines(source, from: "json")
        try await source.close()
        let good = lines.joined(separator: "\n") + "\n"
        let variants: [String: String] = [
            "truncated mid-line": String(good.dropLast(10)),
            "missing trailer": lines.dropLast().joined(separator: "\n") + "\n",
            "edited nickname": good.replacingOccurrences(of: "nul\\u0000inside", with: "nul\\u0000outside"),
            "reordered": ([lines[0], lines[2], lines[1]] + lines.dropFirst(3)).joined(separator: "\n") + "\n",
            "not an export": "{\"hello\":1}\n",
            "empty": "",
            "data after trailer": good + lines[1] + "\n",
        ]
        for (name, text) in variants {
            let path = scratch.path + "/\(name).jsonl"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let error = await accountError { _ = try StoreImporter.validate(path) }
            #expect(error?.code == "invalid_export", "\(name): \(String(describing: error))")
            #expect(error?.message(.english).hasSuffix("; nothing was written") == true, "\(name)")
        }
    }

    @Test(
        "a merge of several batches into a store that gave numbers before: renumbered users never take a number a later batch keeps"
    )
    func mergeRenumbersAcrossBatches() async throws {
        let scratch = try ScratchFolder("import-merge-numbers")
        let source = try await open(Backends.sqlite, scratch.path, "source.sqlite")
        let count = 1_500  // two of the importer's batches of 1,000
        let users = (1...count).map { n in
            UserRecord(
                id: UserID(rawValue: String(format: "%032x", n)), email: String(format: "moved%05d@example.com", n),
                nickname: "moved", passwordHash: "$keep$", createdAt: Timestamp(millisecondsSince1970: Int64(n)))
        }
        #expect(try await source.createUsers(users, sessions: []).isEmpty)
        let file = scratch.path + "/e.jsonl"
        try Self.write(try await Self.exportLines(source, from: "sqlite", withSessions: false), to: file)
        try await source.close()
        let target = try await open(Backends.lmdb, scratch.path, "target.lmdb")
        for n in 1...2 {
            try await target.createUser(
                UserRecord(
                    id: UserID(rawValue: String(repeating: "f", count: 31) + String(n)),
                    email: "resident\(n)@example.com",
                    nickname: "resident", passwordHash: "$keep$", createdAt: Timestamp(millisecondsSince1970: 0)),
                initialSession: nil)
        }
        let report = try await StoreImporter.importFile(try StoreImporter.validate(file), into: target, merge: true)
        #expect(report.imported == count && report.renumbered == 2)
        // Numbers 1 and 2 were the target's: those two users come after the file's highest.
        #expect(try await target.user(email: users[0].email)?.number == count + 1)
        #expect(try await target.user(email: users[1].email)?.number == count + 2)
        #expect(try await target.user(email: users[count - 1].email)?.number == count)
        #expect(try await target.lastUserNumber() == count + 2)
        #expect(try await target.integrityCheck() == ["ok"])
        try await target.close()
    }

    @Test("--merge reports conflicting emails and never overwrites them")
    func merge() async throws {
        let scratch = try ScratchFolder("merge")
        let source = try await open(Backends.sqlite, scratch.path, "source.sqlite")
        let users = ReferenceData.storable
        for user in users { try await source.createUser(user, initialSession: nil) }
        let lines = try await Self.exportLines(source, from: "sqlite", withSessions: false)
        try await source.close()
        let file = scratch.path + "/e.jsonl"
        try Self.write(lines, to: file)
        let target = try await open(Backends.lmdb, scratch.path, "target.lmdb")
        let resident = UserRecord(
            id: UserID(rawValue: String(repeating: "f", count: 32)), email: users[0].email,
            nickname: "resident",
            passwordHash: "$keep$", createdAt: Timestamp(millisecondsSince1970: 9))
        try await target.createUser(resident, initialSession: nil)
        let refused = await accountError {
            _ = try await StoreImporter.importFile(try StoreImporter.validate(file), into: target, merge: false)
        }
        #expect(refused?.code == "store_not_empty")
        #expect(refused?.message(.english).contains("it holds 1 user; nothing was written; use --merge") == true)
        let empty = try await open(Backends.sqlite, scratch.path, "empty.sqlite")
        let refusedMigration = await accountError { _ = try await StoreMigrator.migrate(from: empty, to: target) }
        #expect(refusedMigration?.message(.english).contains("it holds 1 user; nothing was written; migrate") == true)
        try await empty.close()
        let report = try await StoreImporter.importFile(try StoreImporter.validate(file), into: target, merge: true)
        #expect(report.conflicts == [resident.email])
        #expect(report.imported == users.count - 1)
        #expect(
            try await target.user(email: resident.email)?.unnumbered == resident, "the resident was not overwritten")
        #expect(try await target.user(email: resident.email)?.number == 1)
        // The resident holds number 1, the target's highest: the others' numbers were free.
        #expect(report.renumbered == 0)
        #expect(try await target.user(email: users[1].email)?.number == 2)
        try await target.close()
    }
}
