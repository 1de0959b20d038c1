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
    func brokenUTF8SignUp() throws {
        let cli = try CLIRunner("broken-utf8")
        let password = Self.bytes(Self.tangerine, [0xFF, 0xFE], Self.kayak)
        let result = try cli.run(Self.signUp, stdinBytes: password + [0x0A] + password + [0x0A])
        #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("\"invalid_password\"") && result.stdout.contains("UTF-8"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "a refused sign-up created the store")
    }

    @Test("a password with broken bytes never logs in as the password with U+FFFD in their place")
    func replacementCharacterIsNotTheSame() throws {
        let cli = try CLIRunner("fffd")
        let replaced = Self.bytes(Self.tangerine, [0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD], Self.kayak)
        let signup = try cli.run(Self.signUp, stdinBytes: replaced + [0x0A] + replaced + [0x0A])
        #expect(signup.status == 0, "\(signup.stdout) \(signup.stderr)")
        for broken in [[0xFF, 0xFE], [0x80, 0x81]] as [[UInt8]] {
            let attempt = try cli.run(
                ["login", "--email", "leesoon7@example.com", "--password-stdin", "--json"],
                stdinBytes: Self.bytes(Self.tangerine, broken, Self.kayak) + [0x0A])
            #expect(attempt.status == 3, "\(broken): \(attempt.stdout)")
            #expect(attempt.stdout.contains("\"invalid_password\""), "\(attempt.stdout)")
        }
    }

    @Test("a NUL in a password is refused as a NUL, not as a weak password")
    func nul() throws {
        let cli = try CLIRunner("nul")
        let password = Self.bytes(Self.tangerine, [0x00], Self.kayak)
        let result = try cli.run(Self.signUp, stdinBytes: password + [0x0A] + password + [0x0A])
        #expect(result.status == 3, "\(result.stdout)")
        #expect(result.stdout.contains("\"invalid_password\"") && result.stdout.contains("NUL"), "\(result.stdout)")
    }
}
