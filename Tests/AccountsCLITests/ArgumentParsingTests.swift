import AccountBackendKit
import AccountTestSupport
import Foundation
import StandardBackends
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

    @Test("bash completes backend names asked of the program, and settings and store files")
    func bashCompletes() async throws {
        let cli = try CLIRunner("parsing-completion-bash-run")
        let script = try await cli.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0, "\(script.stderr)")
        try script.stdout.write(toFile: cli.root + "/accounts.bash", atomically: true, encoding: .utf8)
        // A folder of its own: bash offers folders beside the files, and the sandbox has some.
        let folder = cli.root + "/files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in ["a.yaml", "b.yml", "notes.txt", "store.sqlite"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + file, contents: nil))
        }
        // What bash does on TAB: fills COMP_WORDS and friends for the line and calls the
        // function the script registered; COMPREPLY holds what it would offer, one per line.
        let offered = """
            source ./accounts.bash
            cd files
            offer() {
                COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<<"$1"
                [[ "$1" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
                _accounts accounts "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd ' '
            }
            offer "\(CLIRunner.executable) signup --backend "
            offer "\(CLIRunner.executable) migrate --to-backend l"
            offer "\(CLIRunner.executable) login --config "
            offer "\(CLIRunner.executable) import --input s"
            """
        let result = try await cli.run(["-c", offered], executable: "/bin/bash")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5, "\(result.stdout)")
        // The running program's registry, not a list fixed when the script was made.
        #expect(lines.first == BackendRegistry.standard.names.sorted().joined(separator: " "), "\(result.stdout)")
        #expect(lines.dropFirst().first == "lmdb", "\(result.stdout)")
        #expect(lines.dropFirst(2).first == "a.yaml b.yml", "settings are YAML files: \(result.stdout)")
        #expect(lines.dropFirst(3).first == "store.sqlite", "\(result.stdout)")
    }
}
