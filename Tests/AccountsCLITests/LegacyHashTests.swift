import AccountBackendKit
import AccountCore
import AccountOperations
import AccountTestSupport
import Foundation
import MemoryBackend
import StandardBackends
import Testing

/// Users brought in with another system's password hashes (made by Django, bcrypt and passlib:
/// scripts/fixtures/legacy-hashes.py), through the CLI as an operator moves them.
@Suite("Legacy hashes through the CLI")
struct LegacyHashTests {
    struct Fixture: Decodable {
        let scheme: String
        let password: String
        let hash: String
    }

    /// One fixture per scheme, with the password NFKC would change: it must be taken as typed.
    static func fixtures() throws -> [Fixture] {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: PackageFiles.path("Tests/AccountCoreTests/Fixtures/legacy-hashes.json")))
        var seen: Set<String> = []
        return try JSONDecoder().decode([Fixture].self, from: data).filter {
            $0.password != PasswordPolicy.normalize($0.password) && seen.insert($0.scheme).inserted
        }
    }

    @Test(
        "imported, migrated and exported byte for byte on each backend, named by users show, and each user logs in once with the old password",
        arguments: BackendRegistry.embedded.descriptors)
    func importAndLogIn(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("legacy-\(backend.name)")
        let fixtures = try Self.fixtures()
        let source = MemoryUserRepository()
        let random = SeededRandom()
        for (index, fixture) in fixtures.enumerated() {
            try await source.createUser(
                UserRecord(
                    id: .random(using: random), email: "legacy\(index)user@example.com", nickname: fixture.scheme,
                    passwordHash: fixture.hash, createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_000)),
                initialSession: nil)
        }
        var lines: [String] = []
        _ = try await StoreExporter.export(
            source, sourceBackend: "memory", withSessions: false, now: Timestamp(millisecondsSince1970: 0)
        ) { lines.append($0) }
        let exportPath = cli.root + "/legacy.export"
        try (lines.joined(separator: "\n") + "\n").write(toFile: exportPath, atomically: true, encoding: .utf8)
        let store = ["--backend", backend.name, "--store", cli.root + "/" + backend.defaultStoreName]
        let imported = try await cli.run(["import", "--input", exportPath] + store)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Migrated to the next embedded backend, then exported from there: every hash is the
        // one the other system made, byte for byte, through import, migrate and export.
        let backends = BackendRegistry.embedded.descriptors
        let next = backends[(backends.firstIndex { $0.name == backend.name }! + 1) % backends.count]
        let migratedStore = cli.root + "/migrated-" + next.defaultStoreName
        let migrated = try await cli.run(["migrate", "--to-backend", next.name, "--to-store", migratedStore] + store)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        for exportedStore in [store, ["--backend", next.name, "--store", migratedStore]] {
            let exported = try await cli.run(["export"] + exportedStore)
            for fixture in fixtures {
                #expect(
                    exported.stdout.contains(#""password_hash":"\#(fixture.hash)""#),
                    "\(fixture.scheme) kept byte for byte in \(exportedStore)")
            }
        }
        for (index, fixture) in fixtures.enumerated() {
            let email = "legacy\(index)user@example.com"
            let before = try await cli.run(["users", "show", email, "--json"] + store)
            #expect(before.stdout.contains(#""password_scheme":"\#(fixture.scheme)""#), "\(before.stdout)")
            let wrong = try await cli.run(
                ["login", "--email", email, "--password-stdin"] + store, stdin: ["Wrong-Kayak-42"])
            #expect(wrong.status == 5 && wrong.stderr.contains("incorrect"), "\(fixture.scheme): \(wrong.stderr)")
            let login = try await cli.run(
                ["login", "--email", email, "--password-stdin"] + store, stdin: [fixture.password])
            #expect(login.status == 0, "\(fixture.scheme): \(login.stderr)")
            let after = try await cli.run(["users", "show", email, "--json"] + store)
            #expect(after.stdout.contains(#""password_scheme":"argon2id""#), "\(fixture.scheme): \(after.stdout)")
            _ = try await cli.run(["logout"] + store)
        }
    }
}
