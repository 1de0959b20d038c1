import AccountTestSupport
import Foundation
import Testing

/// A sign-up or login the store committed, whose session file cannot be written: the command
/// must not claim that nothing changed (the account exists), and must leave no session behind
/// that no one holds. The session file's temporary file is made a folder, so writing it fails
/// for every user, root included.
@Suite("Session file failures")
struct SessionFileFailureTests {
    let password = "Tangerine-Kayak-42"

    func blockSessionFile(_ cli: borrowing CLIRunner) throws {
        try FileManager.default.createDirectory(atPath: cli.sessionPath + ".tmp", withIntermediateDirectories: true)
    }

    func sessions(_ cli: borrowing CLIRunner, _ email: String) async throws -> Int {
        let shown = try await cli.run(["users", "show", email, "--json"]).json()
        return try #require(shown["sessions"] as? Int)
    }

    @Test("a sign-up whose session cannot be saved says the account was created, and revokes the session")
    func signUp() async throws {
        let cli = try CLIRunner("unsaved-signup")
        try FileManager.default.createDirectory(
            atPath: (cli.sessionPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try blockSessionFile(cli)
        let result = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin", "--json"],
            stdin: [password, password])
        #expect(result.status == 10, "\(result.stdout)")
        #expect(result.errorCode == "session_not_saved")
        let message = try #require((try result.json()["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("was created"), "\(message)")
        #expect(!message.contains("nothing was changed"), "\(message)")
        await #expect(try sessions(cli, "leesoon7@example.com") == 0, "the unsaved session was revoked")
        try FileManager.default.removeItem(atPath: cli.sessionPath + ".tmp")
        let login = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin"], stdin: [password])
        #expect(login.status == 0, "the account works: \(login.stderr)")
    }

    @Test("a login whose session cannot be saved keeps the saved session and revokes the new one")
    func login() async throws {
        let cli = try CLIRunner("unsaved-login")
        try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        let saved = try String(contentsOfFile: cli.sessionPath, encoding: .utf8)
        try blockSessionFile(cli)
        let result = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin", "--json"], stdin: [password])
        #expect(result.status == 10, "\(result.stdout)")
        #expect(result.errorCode == "session_not_saved")
        #expect(try String(contentsOfFile: cli.sessionPath, encoding: .utf8) == saved, "the session file is as it was")
        await #expect(
            try sessions(cli, "leesoon7@example.com") == 1, "the saved session stays; the new one was revoked")
        #expect(try await cli.run(["whoami"]).status == 0, "still signed in with the saved session")
    }

    @Test("a session file that is a pipe is refused before signing up or in, and stays a pipe")
    func pipeSessionFile() async throws {
        let cli = try CLIRunner("pipe-session")
        let pipe = try NamedPipe(cli.root + "/session.fifo")
        let signup = try await cli.run(
            [
                "signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin",
                "--session-file", pipe.path,
            ],
            stdin: [password, password])
        #expect(signup.status == 7)
        #expect(signup.stderr.contains("\(pipe.path) is not a regular file (a pipe)"), "\(signup.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "no store was opened, no account made")
        try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        let login = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin", "--session-file", pipe.path],
            stdin: [password])
        #expect(login.status == 7)
        await #expect(try sessions(cli, "leesoon7@example.com") == 1, "no session was made for the pipe")
        let whoami = try await cli.run(["whoami", "--session-file", pipe.path])
        #expect(whoami.status == 7, "\(whoami.stderr)")
        #expect(pipe.isStillAPipe, "the FIFO was replaced by a regular file")
        #expect(pipe.readAvailable().isEmpty, "no token was written into the pipe")
    }
}
