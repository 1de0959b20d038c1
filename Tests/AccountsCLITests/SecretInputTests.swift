import AccountTestSupport
import BackendTestSupport
import Foundation
import Testing

/// Passwords are taken byte for byte: broken UTF-8 is refused, never repaired into U+FFFD (which
/// would make different passwords one), and a NUL is refused as such.
@Suite("Secret input")
struct SecretInputTests {
    static let signUp = [
        "signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin", "--json",
    ]

    static func bytes(_ parts: [UInt8]...) -> [UInt8] { parts.flatMap { $0 } }
    static let tangerine = Array("Tangerine".utf8)
    static let kayak = Array("Kayak-42".utf8)

    @Test("broken UTF-8 on standard input is refused with invalid_password, and nothing is stored")
    func brokenUTF8SignUp() async throws {
        let cli = try CLIRunner("broken-utf8")
        let password = Self.bytes(Self.tangerine, [0xFF, 0xFE], Self.kayak)
        let result = try await cli.run(Self.signUp, stdinBytes: password + [0x0A] + password + [0x0A])
        #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("\"invalid_password\"") && result.stdout.contains("UTF-8"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "a refused sign-up created the store")
    }

    @Test("a password with broken bytes never logs in as the password with U+FFFD in their place")
    func replacementCharacterIsNotTheSame() async throws {
        let cli = try CLIRunner("fffd")
        let replaced = Self.bytes(Self.tangerine, [0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD], Self.kayak)
        let signup = try await cli.run(Self.signUp, stdinBytes: replaced + [0x0A] + replaced + [0x0A])
        #expect(signup.status == 0, "\(signup.stdout) \(signup.stderr)")
        for broken in [[0xFF, 0xFE], [0x80, 0x81]] as [[UInt8]] {
            let attempt = try await cli.run(
                ["login", "--email", "leesoon7@example.com", "--password-stdin", "--json"],
                stdinBytes: Self.bytes(Self.tangerine, broken, Self.kayak) + [0x0A])
            #expect(attempt.status == 3, "\(broken): \(attempt.stdout)")
            #expect(attempt.stdout.contains("\"invalid_password\""), "\(attempt.stdout)")
        }
    }

    @Test("a NUL in a password is refused as a NUL, not as a weak password")
    func nul() async throws {
        let cli = try CLIRunner("nul")
        let password = Self.bytes(Self.tangerine, [0x00], Self.kayak)
        let result = try await cli.run(Self.signUp, stdinBytes: password + [0x0A] + password + [0x0A])
        #expect(result.status == 3, "\(result.stdout)")
        #expect(result.stdout.contains("\"invalid_password\"") && result.stdout.contains("NUL"), "\(result.stdout)")
    }
}

/// One session file holds one token: a new sign-in revokes, in the store, the session it replaces.
@Suite("Replaced sessions")
struct ReplacedSessionTests {
    @Test("after a sign-up and two logins in one session file, the store holds one session")
    func noOrphans() async throws {
        let cli = try CLIRunner("orphans")
        let password = "Tangerine-Kayak-42"
        let signup = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        #expect(signup.status == 0, "\(signup.stderr)")
        for _ in 0..<2 {
            let login = try await cli.run(
                ["login", "--email", "leesoon7@example.com", "--password-stdin"], stdin: [password])
            #expect(login.status == 0, "\(login.stderr)")
        }
        let show = try await cli.run(["users", "show", "leesoon7@example.com", "--json"])
        #expect(show.stdout.contains("\"sessions\":1"), "\(show.stdout)")
        let logout = try await cli.run(["logout"])
        #expect(logout.status == 0)
        let after = try await cli.run(["users", "show", "leesoon7@example.com", "--json"])
        #expect(after.stdout.contains("\"sessions\":0"), "\(after.stdout)")
    }
}

/// Withdrawal without a terminal needs `--yes`; the message says so (not "pass the password").
@Suite("Withdraw confirmation")
struct WithdrawConfirmationTests {
    @Test("withdraw --password-stdin without --yes and without a terminal asks for --yes and deletes nothing")
    func needsYes() async throws {
        let cli = try CLIRunner("withdraw-yes")
        let password = "Tangerine-Kayak-42"
        _ = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        let result = try await cli.run(["withdraw", "--password-stdin", "--json"], stdin: [password])
        #expect(result.status == 2, "\(result.stdout)")
        #expect(result.stdout.contains("\"cancelled\"") && result.stdout.contains("--yes"), "\(result.stdout)")
        #expect(!result.stdout.contains("pass the password"), "\(result.stdout)")
        let count = try await cli.run(["users", "count"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }
}
