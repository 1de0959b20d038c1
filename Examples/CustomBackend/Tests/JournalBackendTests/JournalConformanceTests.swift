import AccountBackendKit
import AccountConformance
import AccountCore
import Foundation
import JournalBackend
import JournalBackendFixtures
import StandardBackendFixtures
import StandardBackends
import Testing

/// The shared suite on the journal backend, in a registry with the standard backends (whose
/// files it must refuse), and the journal's own promises.
@Suite("Journal backend")
struct JournalConformanceTests {
    static let registry = BackendRegistry.standard.adding(JournalBackendDescriptor())
    /// Their fixtures: the journal's, and the standard backends' (whose files it must refuse).
    static let fixtures = BackendFixtureSet.standard.adding(JournalFixtures())

    /// This package's `accounts` (the CLI with the journal), built beside the test bundle: the
    /// multi-process checks start it in other processes.
    static let accounts: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "accounts"
            )
            .path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("accounts").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    // snippet.suite
    /// Every check but those that cut a store off mid-write: a journal is a local file, which
    /// no fixture of ours can cut off (run, they are skipped, saying so).
    static let runnable = ConformanceSuite.checks.filter { !$0.needsCutOff }

    @Test("journal passes check", arguments: runnable)
    func passes(_ check: ConformanceCheck) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let subject = ConformanceSubject(
            JournalBackendDescriptor(), fixtures: Self.fixtures, registry: Self.registry,
            processes: .accounts(
                executable: Self.accounts, backend: "journal",
                environment: ["HOME": scratch, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], scratch: scratch))
        try #require(subject.missingCapabilities(for: check).isEmpty, "the journal declares every capability")
        try await ConformanceSuite.run(check, on: subject)
    }
    // snippet.end

    @Test("the checks that cut a store off are skipped, saying the journal's fixtures cannot")
    func cutOffChecksSkipped() async throws {
        let subject = ConformanceSubject(JournalBackendDescriptor(), fixtures: Self.fixtures, registry: Self.registry)
        let skipped = ConformanceSuite.checks.filter { subject.skip(for: $0) != nil }
        #expect(!skipped.isEmpty && skipped.map(\.name) == ConformanceSuite.checks.filter(\.needsCutOff).map(\.name))
        for check in skipped {
            await #expect(throws: ConformanceSkipped.self) { try await ConformanceSuite.run(check, on: subject) }
            #expect(subject.skip(for: check)?.cannotCutOff == true, "\(check.name)")
        }
    }

    @Test("the other backends refuse a journal as store_kind_mismatch")
    func othersRefuseIt() async throws {
        try await Self.withJournalPath { path in
            let journal = try await Self.registry.open("journal", BackendConfiguration(location: path))
            try await journal.close()
            for other in BackendRegistry.standard.descriptors where other.storesInFiles {
                do {
                    _ = try await Self.registry.open(
                        other, BackendConfiguration(location: path, values: other.defaultValues))
                    Issue.record("\(other.name) opened a journal")
                } catch let error as AccountError {
                    #expect(error.code == "store_kind_mismatch", "\(other.name): \(error)")
                }
            }
        }
    }

    @Test("a crash mid-append (a torn last line) loses only that write, and the next write repairs it")
    func tornTail() async throws {
        try await Self.withJournalPath { path in
            let user = UserRecord(
                id: UserID(rawValue: String(repeating: "a", count: 32)), email: "torntail@example.com",
                nickname: "torn", passwordHash: "$h$", createdAt: Timestamp(millisecondsSince1970: 1))
            let store = try await Self.registry.open("journal", BackendConfiguration(location: path))
            try await store.createUser(user, initialSession: nil)
            try await store.close()
            let handle = try #require(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data(#"{"putUsers":[{"id":"#.utf8))
            handle.closeFile()
            let reopened = try await Self.registry.open("journal", BackendConfiguration(location: path))
            #expect(try await reopened.userCount() == 1)
            var second = user
            second.id = UserID(rawValue: String(repeating: "b", count: 32))
            second.email = "secondone@example.com"
            try await reopened.createUser(second, initialSession: nil)
            #expect(try await reopened.integrityCheck() == ["ok"])
            #expect(try await reopened.userCount() == 2)
            try await reopened.close()
        }
    }

    @Test("a batch of users with their sessions is one journal line, so a crash keeps all of it or none")
    func batchIsOneLine() async throws {
        try await Self.withJournalPath { path in
            let users = (1...50).map { n in
                UserRecord(
                    id: UserID(rawValue: String(format: "%032x", n)), email: "batchuser\(n)@example.com",
                    nickname: "batch \(n)", passwordHash: "$h$", createdAt: Timestamp(millisecondsSince1970: Int64(n)))
            }
            let sessions = users.map { user in
                SessionRecord(
                    tokenHash: String(repeating: "0", count: 32) + user.id.rawValue, userID: user.id,
                    createdAt: user.createdAt, lastSeenAt: user.createdAt,
                    expiresAt: Timestamp(millisecondsSince1970: 10_000), idleTimeoutSeconds: 3_600, remember: false)
            }
            let store = try await Self.registry.open("journal", BackendConfiguration(location: path))
            let linesBefore = try Self.lineCount(path)
            // What an import calls (StoreImporter, StoreMigrator): the requirement, not the
            // protocol's one-at-a-time default.
            #expect(try await store.createUsers(users, sessions: sessions).isEmpty)
            #expect(try Self.lineCount(path) == linesBefore + 1, "the batch was not written as one line")
            #expect(try await store.userCount() == 50)
            #expect(try await store.sessions(userID: users[49].id) == [sessions[49]])
            try await store.close()
        }
    }

    @Test("a format-1 journal is refused unchanged by a reader and upgraded by a writer, numbered in creation order")
    func formatOneUpgrades() async throws {
        try await Self.withJournalPath { path in
            let later = UserRecord(
                id: UserID(rawValue: String(repeating: "a", count: 32)), email: "later@example.com", nickname: "later",
                passwordHash: "$h$", createdAt: Timestamp(millisecondsSince1970: 20))
            let earlier = UserRecord(
                id: UserID(rawValue: String(repeating: "b", count: 32)), email: "earlier@example.com",
                nickname: "earlier", passwordHash: "$h$", createdAt: Timestamp(millisecondsSince1970: 10))
            let store = try await Self.registry.open("journal", BackendConfiguration(location: path))
            try await store.createUser(later, initialSession: nil)
            try await store.createUser(earlier, initialSession: nil)
            try await store.close()
            // The same journal as format 1 wrote it: no numbers.
            let text = try String(contentsOfFile: path, encoding: .utf8)
                .replacingOccurrences(of: #""format_version":\#(Self.current)"#, with: #""format_version":1"#)
                .replacingOccurrences(of: #""number":[0-9]+,"#, with: "", options: .regularExpression)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            var reading = BackendConfiguration(location: path, createIfMissing: false)
            reading.upgradesFormat = false
            await #expect(throws: AccountError.storeUpgradeNeeded(found: 1, current: Self.current)) {
                _ = try await Self.registry.open("journal", reading)
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "the refused open changed the journal")
            let upgraded = try await Self.registry.open("journal", BackendConfiguration(location: path))
            #expect(try await upgraded.storeInfo().formatVersion == Self.current)
            #expect(try await upgraded.user(id: earlier.id)?.number == 1)
            #expect(try await upgraded.user(id: later.id)?.number == 2)
            #expect(try await upgraded.lastUserNumber() == 2)
            try await upgraded.close()
        }
    }

    @Test("a format-2 journal upgrades keeping its numbers and highest number; its sessions get no device name")
    func formatTwoUpgrades() async throws {
        try await Self.withJournalPath { path in
            let users = (1...3).map { n in
                UserRecord(
                    id: UserID(rawValue: String(repeating: String(n), count: 32)), email: "user\(n)@example.com",
                    nickname: "user\(n)", passwordHash: "$h$", createdAt: Timestamp(millisecondsSince1970: Int64(n)))
            }
            let session = SessionRecord(
                tokenHash: String(repeating: "c", count: 64), userID: users[0].id,
                createdAt: Timestamp(millisecondsSince1970: 5), lastSeenAt: Timestamp(millisecondsSince1970: 5),
                expiresAt: Timestamp(millisecondsSince1970: 9_000), idleTimeoutSeconds: 60, remember: false,
                device: "Firefox on Linux")
            let store = try await Self.registry.open("journal", BackendConfiguration(location: path))
            for user in users { try await store.createUser(user, initialSession: user == users[0] ? session : nil) }
            _ = try await store.deleteUser(id: users[2].id)
            try await store.close()
            // The same journal as format 2 wrote it: sessions without a device.
            let text = try String(contentsOfFile: path, encoding: .utf8)
                .replacingOccurrences(of: #""format_version":\#(Self.current)"#, with: #""format_version":2"#)
                .replacingOccurrences(of: #","device":"Firefox on Linux""#, with: "")
                .replacingOccurrences(of: #""device":"Firefox on Linux","#, with: "")
            #expect(!text.contains("Firefox"))
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let upgraded = try await Self.registry.open("journal", BackendConfiguration(location: path))
            #expect(try await upgraded.storeInfo().formatVersion == Self.current)
            #expect(try await upgraded.user(id: users[0].id)?.number == 1)
            #expect(try await upgraded.user(id: users[1].id)?.number == 2)
            #expect(try await upgraded.lastUserNumber() == 3, "the withdrawn user's number is never given again")
            var expected = session
            expected.device = ""
            #expect(try await upgraded.session(tokenHash: session.tokenHash) == expected)
            try await upgraded.close()
        }
    }

    @Test("a format-4 journal upgrades keeping the services' values; each session becomes its own family")
    func formatFourUpgrades() async throws {
        try await Self.withJournalPath { path in
            let user = UserRecord(
                id: UserID(rawValue: String(repeating: "d", count: 32)), email: "four@example.com", nickname: "four",
                passwordHash: "$h$", createdAt: Timestamp(millisecondsSince1970: 1))
            let session = SessionRecord(
                tokenHash: String(repeating: "e", count: 64), userID: user.id,
                createdAt: Timestamp(millisecondsSince1970: 5), lastSeenAt: Timestamp(millisecondsSince1970: 5),
                expiresAt: Timestamp(millisecondsSince1970: 9_000), idleTimeoutSeconds: 60, remember: false,
                device: "phone")
            let store = try await Self.registry.open("journal", BackendConfiguration(location: path))
            try await store.createUser(user, initialSession: session)
            try await store.setStoreValue("kept", forKey: "server.secret_check")
            try await store.close()
            // The same journal as format 4 wrote it: no families.
            let text = try String(contentsOfFile: path, encoding: .utf8)
                .replacingOccurrences(of: #""format_version":\#(Self.current)"#, with: #""format_version":4"#)
                .replacingOccurrences(of: #""family":"e+","#, with: "", options: .regularExpression)
            #expect(!text.contains("family"))
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let upgraded = try await Self.registry.open("journal", BackendConfiguration(location: path))
            #expect(try await upgraded.storeInfo().formatVersion == Self.current)
            #expect(try await upgraded.storeValue(forKey: "server.secret_check") == "kept")
            #expect(try await upgraded.session(tokenHash: session.tokenHash)?.family == session.tokenHash)
            try await upgraded.close()
        }
    }

    /// The journal format this package writes.
    static let current = JournalBackendDescriptor().formatVersion

    /// The path of a journal in a new folder, removed when `body` ends.
    static func withJournalPath(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await body(folder + "/accounts.journal")
    }

    /// How many lines the journal has: its header, then one per write.
    static func lineCount(_ path: String) throws -> Int {
        try Data(contentsOf: URL(fileURLWithPath: path)).filter { $0 == 0x0A }.count
    }
}
