import AccountTestSupport
import Foundation
import Testing

/// Arguments whose bytes are not UTF-8 are refused with the field's code, never stored
/// repaired (Swift hands a program its arguments with broken bytes already made `U+FFFD`).
@Suite("Broken UTF-8 arguments")
struct BrokenArgumentTests {
    let password = "Tangerine-Kayak-42"

    /// Runs `accounts` through the shell, so that `printf` can put raw bytes into an argument.
    func run(_ cli: borrowing CLIRunner, _ arguments: String, stdin: [String] = []) async throws -> CLIRunner.Result {
        try await cli.run(
            ["-c", "exec \"$0\" \(arguments)", CLIRunner.executable], stdin: stdin, executable: "/bin/sh")
    }

    @Test(
        "a nickname or email that is not UTF-8 is refused with its code, exit 3, nothing stored",
        arguments: [
            ("--nickname \"$(printf '\\377\\376길동')\" --email hongkd12@example.com", "invalid_nickname"),
            ("--nickname=\"$(printf '\\377\\376길동')\" --email hongkd12@example.com", "invalid_nickname"),
            ("--nickname 홍길동 --email \"$(printf 'hong\\377d12@example.com')\"", "invalid_email"),
        ])
    func refused(_ arguments: String, _ code: String) async throws {
        let cli = try CLIRunner("broken-argument")
        let result = try await run(
            cli, "signup \(arguments) --password-stdin --json", stdin: [password, password])
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.errorCode == code, "\(result.stdout)")
        #expect(result.stdout.contains("not valid UTF-8"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "nothing was created, nothing stored")
    }

    @Test("any other argument that is not UTF-8 is a usage error naming it")
    func otherArgument() async throws {
        let cli = try CLIRunner("broken-argument-other")
        let result = try await run(cli, "users show \"$(printf '\\377')\"")
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "error: Argument 3 is not valid UTF-8 (it has broken bytes); set the terminal's encoding to UTF-8.\n"
        )
    }

    @Test("a valid nickname with U+FFFD typed on purpose is not taken for broken bytes")
    func replacementCharacterTyped() async throws {
        let cli = try CLIRunner("broken-argument-fffd")
        let result = try await cli.run(
            ["signup", "--email", "hongkd12@example.com", "--nickname", "홍\u{FFFD}동", "--password-stdin"],
            stdin: [password, password])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
