import AccountTestSupport
import Foundation
import Testing

/// `accounts keys`: the signing keys of access tokens, listed and rotated from the CLI, never
/// shown (ids and dates only).
@Suite("Signing keys")
struct KeysCommandTests {
    static func keys(_ result: CLIRunner.Result) throws -> [[String: Any]] {
        try #require(try result.json()["keys"] as? [[String: Any]])
    }

    @Test("list makes the first key; rotate keeps the old one published; --now drops it; no key is printed")
    func listAndRotate() async throws {
        let cli = try CLIRunner("keys")
        let file = cli.root + "/state/accounts/signing-keys.json"
        let listed = try await cli.run(["keys", "list", "--json"])
        #expect(listed.status == 0)
        let first = try Self.keys(listed)
        #expect(first.count == 1 && first[0]["published"] as? Bool == true && first[0]["retired_at_ms"] == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let rotated = try await cli.run(["keys", "rotate"])
        #expect(rotated.status == 0 && rotated.stdout.contains("The previous key stays published"))
        let two = try Self.keys(try await cli.run(["keys", "list", "--json"]))
        #expect(two.count == 2)
        #expect(two[0]["kid"] as? String == first[0]["kid"] as? String && two[0]["retired_at_ms"] != nil)
        #expect(two.allSatisfy { $0["published"] as? Bool == true })

        let korean = try await cli.run(["keys", "rotate", "--now", "--lang", "ko"])
        #expect(korean.status == 0 && korean.stdout.contains("이전 키는 지웠습니다"))
        let one = try Self.keys(try await cli.run(["keys", "list", "--json"]))
        #expect(one.count == 1 && !two.contains { $0["kid"] as? String == one[0]["kid"] as? String })

        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("PRIVATE KEY"), "the file holds the key")
        for result in [listed, rotated, korean] {
            #expect(!result.stdout.contains("PRIVATE KEY") && !result.stderr.contains("PRIVATE KEY"))
        }
    }

    @Test("a key file that holds anything else is reported, naming the setting, and left as it is")
    func damagedFile() async throws {
        let cli = try CLIRunner("keys-damaged")
        let file = cli.root + "/keys.json"
        try "{}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await cli.run(
            ["keys", "rotate", "--json"], environment: ["ACCOUNTS_SESSION_SIGNING_KEY_FILE": file])
        #expect(result.status != 0 && result.errorCode == "config_invalid")
        #expect(result.stdout.contains("session.signing_key_file"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{}\n")
    }
}
