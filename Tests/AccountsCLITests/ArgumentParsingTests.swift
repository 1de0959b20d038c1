import AccountTestSupport
import Testing

/// The parse skips swift-argument-parser's completion-script check unless a command line asks
/// for a script (`CompletionScriptCheck`): what the user reads must not change with it.
@Suite("accounts argument parsing")
struct ArgumentParsingTests {
    /// What the configuration carries during a parse that skips the check; never printed.
    let marker = "completion-script-check-skipped"

    @Test("usage errors, help and --version name the tool as `accounts` after a parse that skipped the check")
    func textsAfterTheParse() async throws {
        let cli = try CLIRunner("parsing-texts")
        let unknown = try await cli.run(["users", "count", "--nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Usage: accounts users count ["), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("See 'accounts users count --help'"), "\(unknown.stderr)")
        let missing = try await cli.run(["login"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Usage: accounts login "), "\(missing.stderr)")
        let help = try await cli.run(["users", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: accounts users <subcommand>"), "\(help.stdout)")
        let helpCommand = try await cli.run(["help", "whoami"])
        #expect(helpCommand.stdout.contains("USAGE: accounts whoami"), "\(helpCommand.stdout)")
        let version = try await cli.run(["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty)
        for result in [unknown, missing, help, helpCommand, version] {
            #expect(!(result.stdout + result.stderr).contains(marker))
        }
    }

    @Test("--generate-completion-script still prints a script", arguments: ["bash", "zsh", "fish"])
    func completionScript(_ shell: String) async throws {
        let cli = try CLIRunner("parsing-completion-\(shell)")
        for arguments in [["--generate-completion-script", shell], ["--generate-completion-script=\(shell)"]] {
            let result = try await cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            // Every script names the tool's subcommands for the shell to offer.
            #expect(result.stdout.contains("accounts") && result.stdout.contains("whoami"), "\(arguments)")
            #expect(!result.stdout.contains("USAGE:"), "\(arguments) printed help instead of a script")
            #expect(!result.stdout.contains(marker))
        }
    }
}
