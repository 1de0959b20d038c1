import AccountBackendKit
import AccountTestSupport
import Foundation
import StandardBackends
import Testing

/// What swift-argument-parser prints for `accounts`: usage errors, help, the version, completion
/// scripts, and what the shells complete.
@Suite("accounts argument parsing")
struct ArgumentParsingTests {
    @Test("usage errors, help and --version name the tool as `accounts`")
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
    }

    @Test("--generate-completion-script prints a script", arguments: ["bash", "zsh", "fish"])
    func completionScript(_ shell: String) async throws {
        let cli = try CLIRunner("parsing-completion-\(shell)")
        for arguments in [["--generate-completion-script", shell], ["--generate-completion-script=\(shell)"]] {
            let result = try await cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            // Every script names the tool's subcommands for the shell to offer.
            #expect(result.stdout.contains("accounts") && result.stdout.contains("whoami"), "\(arguments)")
            #expect(!result.stdout.contains("USAGE:"), "\(arguments) printed help instead of a script")
        }
    }

    @Test("bash completes backend names asked of the program, and settings and store files")
    func bashCompletes() async throws {
        let cli = try CLIRunner("parsing-completion-bash-run")
        // A folder of its own: bash offers folders beside the files, and the sandbox has some.
        let folder = cli.root + "/files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in ["a.yaml", "b.yml", "notes.txt", "store.sqlite"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + file, contents: nil))
        }
        let lines = try await Self.bashOffers(
            cli, in: "files",
            for: ["signup --backend ", "migrate --to-backend l", "login --config ", "import --input s"])
        // The running program's registry, not a list fixed when the script was made.
        #expect(lines.first == BackendRegistry.standard.names.sorted().joined(separator: " "), "\(lines)")
        #expect(lines.dropFirst().first == "lmdb", "\(lines)")
        #expect(lines.dropFirst(2).first == "a.yaml b.yml", "settings are YAML files: \(lines)")
        #expect(lines.dropFirst(3).first == "store.sqlite", "\(lines)")
    }

    @Test(
        "bash completes users show and users list --after with the emails of the store the line names",
        arguments: ["sqlite", "lmdb", "json"])
    func bashCompletesEmails(_ backend: String) async throws {
        let cli = try CLIRunner("parsing-completion-emails-\(backend)")
        let store = try await WrittenStore.make(cli, count: 250, backend: backend)
        let show = "users show --backend \(backend) --store \(store) "
        let lines = try await Self.bashOffers(
            cli,
            for: [
                show + "user10024", show + "--json user1002",
                "users list --backend \(backend) --store \(store) --after user10010",
                show + "user1001", show, show + "user1003",
                "users show --backend \(backend) --store \(store)-missing user",
                "users show --backend \(backend) --store \(store) --limit 3 user",
            ])
        let emails = { (range: ClosedRange<Int>) in range.map { "user\($0)@example.com" }.joined(separator: " ") }
        #expect(lines.first == emails(100_240...100_249), "the run of a prefix: \(lines)")
        #expect(lines.dropFirst().first == emails(100_200...100_249), "after a flag: \(lines)")
        #expect(lines.dropFirst(2).first == emails(100_100...100_109), "an option's value: \(lines)")
        // At most 100 offered: the run of `user1001` is exactly 100, and an empty prefix's all 250.
        #expect(lines.dropFirst(3).first == emails(100_100...100_199), "\(lines)")
        #expect(lines.dropFirst(4).first == emails(100_000...100_099), "\(lines)")
        // No such emails, a store that is not there, a line that does not parse: nothing offered.
        #expect(lines.dropFirst(5).first == "", "\(lines)")
        #expect(lines.dropFirst(6).first == "", "\(lines)")
        #expect(lines.dropFirst(7).first == "", "\(lines)")
        #expect(
            !FileManager.default.fileExists(atPath: store + "-missing"),
            "completion created the store it was asked about")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "completion created the default store")
    }

    @Test("TAB offers nothing, and soon, when the store's PostgreSQL host accepts and never answers")
    func bashGivesUpOnASilentHost() async throws {
        let cli = try CLIRunner("parsing-completion-silent-host")
        let host = try SilentListener()
        // A connect timeout of ten minutes: a completion that waited for it would overrun the
        // two minutes `bashOffers` allows; one that gives up after its own patience answers.
        let environment = [
            "ACCOUNTS_POSTGRES_HOST": "127.0.0.1", "ACCOUNTS_POSTGRES_PORT": "\(host.port)",
            "ACCOUNTS_POSTGRES_CONNECT_TIMEOUT_MS": "600000",
        ]
        let lines = try await Self.bashOffers(
            cli, for: ["users show --backend postgres user", "users list --backend postgres --after user"],
            environment: environment, within: .seconds(120))
        // Only now: closed any earlier, the port would refuse at once, and the lookup end fast.
        host.stop()
        #expect(lines.prefix(2) == ["", ""], "\(lines)")
    }

    /// What bash offers on TAB at the end of each of `lines` (the arguments after the program),
    /// run in the folder `folder` of the scratch folder with `environment` added, for at most
    /// `limit`: the offers of each line sorted and joined by spaces, one line each.
    static func bashOffers(
        _ cli: borrowing CLIRunner, in folder: String = ".", for lines: [String], environment: [String: String] = [:],
        within limit: Duration = .seconds(600)
    ) async throws -> [String] {
        let script = try await cli.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0, "\(script.stderr)")
        try script.stdout.write(toFile: cli.root + "/accounts.bash", atomically: true, encoding: .utf8)
        // What bash does on TAB: fills COMP_WORDS and friends for the line and calls the
        // function the script registered; COMPREPLY holds what it would offer, one per line.
        let offered = """
            source ./accounts.bash
            cd \(folder)
            offer() {
                COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<<"$1"
                [[ "$1" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
                _accounts accounts "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd ' '
            }

            """ + lines.map { "offer \"\(CLIRunner.executable) \($0)\"\n" }.joined()
        let result = try await cli.run(
            ["-c", offered], environment: environment, executable: "/bin/bash", within: limit)
        #expect(result.status == 0, "\(result.stderr)")
        let offers = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(offers.count == lines.count + 1, "\(result.stdout)")
        return offers
    }
}
