import AccountTestSupport
import Foundation
import Testing

/// Text from a store reaches an operator's terminal with its control characters escaped, and
/// `doctor` reports a record that breaks the rules the store promises (a hand-edited store).
@Suite("Stored text in output")
struct StoredTextOutputTests {
    let password = "Tangerine-Kayak-42"
    let email = "hongkd12@example.com"

    /// A JSON store whose one account's nickname was edited by hand to hold an escape sequence
    /// and a bell.
    func handEditedStore(_ cli: borrowing CLIRunner) async throws -> [String] {
        let store = cli.root + "/edited.json"
        let options = ["--backend", "json", "--store", store]
        let signup = try await cli.run(
            ["signup", "--email", email, "--nickname", "홍길동", "--password-stdin"] + options,
            stdin: [password, password])
        #expect(signup.status == 0, "\(signup.stderr)")
        let text = try String(contentsOfFile: store, encoding: .utf8)
        #expect(text.contains("\"홍길동\""))
        try text.replacingOccurrences(of: "\"홍길동\"", with: #""\u001b[31mRED\u0007""#)
            .write(toFile: store, atomically: true, encoding: .utf8)
        return options
    }

    @Test("users show, users list, whoami and start print control characters escaped")
    func escaped() async throws {
        let cli = try CLIRunner("stored-text-escaped")
        let options = try await handEditedStore(cli)
        for command in [["users", "show", email], ["users", "list"], ["whoami"], ["start"]] {
            let result = try await cli.run(command + options)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stdout.contains(#"\u{1B}[31mRED\u{7}"#), "\(command): \(result.stdout)")
            #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{7}"), "\(command) printed raw")
        }
        let json = try await cli.run(["whoami", "--json"] + options).json()
        #expect(
            (json["user"] as? [String: Any])?["nickname"] as? String == "\u{1B}[31mRED\u{7}",
            "JSON carries the text itself, escaped by JSON")
    }

    @Test("doctor reports a record that breaks a rule, with the rule, and exits 1")
    func doctorReportsBrokenRecords() async throws {
        let cli = try CLIRunner("stored-text-doctor")
        let options = try await handEditedStore(cli)
        let text = try await cli.run(["doctor"] + options)
        #expect(text.status == 1)
        #expect(text.stdout.contains("integrity: DAMAGED"), "\(text.stdout)")
        #expect(
            text.stdout.contains(
                "rule broken: account \(email): The nickname must not contain control or format characters or line breaks."
            ), "\(text.stdout)")
        let json = try await cli.run(["doctor", "--json"] + options).json()
        let broken = try #require(json["broken_records"] as? [[String: Any]])
        #expect(broken.count == 1)
        #expect(broken.first?["email"] as? String == email)
        #expect(broken.first?["code"] as? String == "invalid_nickname")
        #expect(json["integrity_ok"] as? Bool == false)
    }
}
