import AccountTestSupport
import Foundation
import Testing

/// A command line that does not parse is reported as the real mistake, with the one `error:`
/// prefix every other error has, and with `--json` a short message and the usage apart.
@Suite("Usage mistakes")
struct UsageMistakeTests {
    @Test("an unknown command is named as one, with the nearest command")
    func unknownCommand() async throws {
        let cli = try CLIRunner("usage-unknown-command")
        let bogus = try await cli.run(["bogus", "--json"])
        #expect(bogus.status == 2)
        let error = try #require(try bogus.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "usage")
        #expect(error["message"] as? String == "'bogus' is not a command of accounts.", "\(error)")
        #expect((error["usage"] as? String)?.hasPrefix("Usage: accounts <subcommand>") == true, "\(error)")
        let typo = try await cli.run(["sigup", "--email", "x"])
        #expect(typo.stderr.hasPrefix("error: 'sigup' is not a command of accounts. Did you mean 'accounts signup'?\n"))
        let nested = try await cli.run(["users", "shw"])
        #expect(
            nested.stderr.hasPrefix(
                "error: 'shw' is not a command of accounts users. Did you mean 'accounts users show'?"))
    }

    @Test("the app's options given to accounts alone say where they go")
    func appOptionAtTheRoot() async throws {
        let cli = try CLIRunner("usage-app-option")
        let result = try await cli.run(["--lang", "ko"], environment: ["LANG": "en_US.UTF-8"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("accounts app --lang ko"), "\(result.stderr)")
        #expect(!result.stderr.contains("Unknown option"), "\(result.stderr)")
    }

    @Test("every usage error starts with `error:`; with --json the message is one line")
    func onePrefix() async throws {
        let cli = try CLIRunner("usage-prefix")
        for arguments in [["users", "count", "--nope"], ["login"], ["signup", "--email"]] {
            let text = try await cli.run(arguments)
            #expect(text.status == 2)
            #expect(text.stderr.hasPrefix("error: "), "\(arguments): \(text.stderr)")
            #expect(!text.stderr.contains("Error:"), "\(arguments): \(text.stderr)")
            let json = try await cli.run(arguments + ["--json"])
            let error = try #require(try json.json()["error"] as? [String: Any])
            let message = try #require(error["message"] as? String)
            #expect(!message.contains("\n") && !message.contains("Usage:"), "\(arguments): \(message)")
            #expect((error["usage"] as? String)?.contains("Usage: accounts") == true, "\(arguments): \(error)")
        }
    }

    @Test("accounts app without a terminal is a usage error, one JSON object with --json")
    func appWithoutTerminal() async throws {
        let cli = try CLIRunner("usage-app-no-terminal")
        let result = try await cli.run(["app", "--json"])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage")
        #expect(try result.json()["ok"] as? Bool == false)
        let text = try await cli.run(["app"])
        #expect(text.status == 2)
        #expect(text.stderr.hasPrefix("error: The app needs a terminal"), "\(text.stderr)")
        #expect(text.stdout.isEmpty, "no help printed in its place")
    }
}
