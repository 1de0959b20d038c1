import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// Reading commands never create a store: a mistyped path is `store_not_found` naming it, and
/// nothing appears there; only commands that write new accounts create one.
@Suite("Read-only commands")
struct ReadOnlyCommandTests {
    /// Commands that read the store (they take no session file).
    static let readers: [[String]] = [
        ["users", "count"], ["users", "list"], ["users", "show", "leesoon7@example.com"], ["doctor"], ["export"],
    ]
    /// Commands that work on an existing account through the saved session.
    static let sessionCommands: [[String]] = [
        ["logout"], ["passwd", "--password-stdin"], ["withdraw", "--yes", "--password-stdin"], ["whoami"], ["start"],
        ["login", "--email", "leesoon7@example.com", "--password-stdin"],
    ]

    @Test("a reading command on a mistyped store path creates nothing", arguments: BackendRegistry.embedded.descriptors)
    func mistypedPath(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("typo-\(backend.name)")
        let typo = cli.root + "/typo." + backend.name
        // A saved session, so that the session commands reach the store.
        try "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n".write(
            toFile: cli.root + "/session", atomically: true, encoding: .utf8)
        for command in Self.readers + Self.sessionCommands {
            let session = Self.sessionCommands.contains(command) ? ["--session-file", cli.root + "/session"] : []
            let result = try await cli.run(
                command + ["--backend", backend.name, "--store", typo, "--json"] + session,
                stdin: ["Tangerine-Kayak-42", "Tangerine-Kayak-42", "Tangerine-Kayak-43"])
            #expect(result.status == 7, "\(command): \(result.stdout) \(result.stderr)")
            #expect(result.stdout.contains("\"store_not_found\""), "\(command): \(result.stdout)")
            #expect(result.stdout.contains(typo), "\(command) names the path: \(result.stdout)")
            let left = try FileManager.default.contentsOfDirectory(atPath: cli.root).filter { $0.hasPrefix("typo") }
            #expect(left.isEmpty, "\(command) left \(left)")
        }
    }

    @Test("on a fresh machine the start screen is a guest's and no store is made")
    func freshStart() async throws {
        let cli = try CLIRunner("fresh-start")
        let result = try await cli.run(["start", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"screen\":\"signup\""))
        #expect(!FileManager.default.fileExists(atPath: cli.storePath))
    }

    @Test("sign-up and import create the store; the readers then open it")
    func writersCreate() async throws {
        let cli = try CLIRunner("writers-create")
        let store = cli.root + "/new.sqlite"
        let signup = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin", "--store", store],
            stdin: ["Tangerine-Kayak-42", "Tangerine-Kayak-42"])
        #expect(signup.status == 0, "\(signup.stderr)")
        let count = try await cli.run(["users", "count", "--store", store])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        let export = try await cli.run(["export", "--output", cli.root + "/all.jsonl", "--store", store])
        #expect(export.status == 0, "\(export.stderr)")
        let imported = try await cli.run([
            "import", "--input", cli.root + "/all.jsonl", "--store", cli.root + "/copy.sqlite",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: cli.root + "/copy.sqlite"))
    }
}
