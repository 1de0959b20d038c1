import AccountTestSupport
import BackendTestSupport
import Foundation
import Testing

/// What operators read: codes of their own, dates as dates, plurals, clear refusals.
@Suite("Operator output")
struct OperatorOutputTests {
    static let password = "Tangerine-Kayak-42"

    static func withOneUser(_ name: String) async throws -> CLIRunner {
        let cli = try CLIRunner(name)
        let signup = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        #expect(signup.status == 0, "\(signup.stderr)")
        return cli
    }

    @Test("users show of a missing email is account_not_found with exit 9")
    func missingAccount() async throws {
        let cli = try await Self.withOneUser("missing-account")
        let result = try await cli.run(["users", "show", "nobody77@example.com", "--json"])
        #expect(result.status == 9)
        #expect(result.stdout.contains("\"account_not_found\""), "\(result.stdout)")
    }

    @Test("users show prints dates in ISO 8601, UTC")
    func isoDates() async throws {
        let cli = try await Self.withOneUser("iso-dates")
        let result = try await cli.run(["users", "show", "leesoon7@example.com"])
        let created = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("Created:") })
        #expect(created.wholeMatch(of: #/Created:\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#) != nil, "\(created)")
    }

    @Test("--limit -1 is refused as out of range")
    func negativeLimit() async throws {
        let cli = try await Self.withOneUser("negative-limit")
        let result = try await cli.run(["users", "list", "--limit", "-1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("out of range"), "\(result.stderr)")
    }

    @Test("a store path that is a device is refused as not a regular file")
    func deviceStore() async throws {
        let cli = try CLIRunner("device-store")
        for backend in ["sqlite", "lmdb", "json"] {
            let result = try await cli.run(["users", "count", "--backend", backend, "--store", "/dev/null"])
            #expect(result.status == 7)
            #expect(result.stderr.contains("not a regular file"), "\(backend): \(result.stderr)")
        }
    }

    @Test("an export into a missing folder names the folder and leaves nothing")
    func exportMissingFolder() async throws {
        let cli = try await Self.withOneUser("export-folder")
        let result = try await cli.run(["export", "--output", cli.root + "/nope/all.jsonl"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("The folder \(cli.root)/nope"), "\(result.stderr)")
    }

    @Test("import --input - reads standard input, as export writes to standard output")
    func importStandardInput() async throws {
        let cli = try await Self.withOneUser("import-stdin")
        let export = try await cli.run(["export"])
        #expect(export.status == 0)
        let lines = export.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let result = try await cli.run(
            ["import", "--input", "-", "--store", cli.root + "/copy.sqlite"], stdin: Array(lines.dropLast()))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Imported 1 user and 0 sessions.\n")
    }

    @Test("--version prints the version; --help says that accounts alone opens the app")
    func versionAndHelp() async throws {
        let cli = try CLIRunner("version-help")
        let version = try await cli.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.wholeMatch(of: #/\d+\.\d+\.\d+\n/#) != nil, "\(version.stdout)")
        let help = try await cli.run(["--help"])
        #expect(help.stdout.contains("Run `accounts` alone on a terminal to open the app"))
        #expect(help.stdout.contains("postgres") && help.stdout.contains("lmdb"), "the overview names every backend")
    }

    @Test("with --lang ko, doctor, backends and verify speak Korean")
    func koreanOperatorOutput() async throws {
        let cli = try await Self.withOneUser("korean-operators")
        let doctor = try await cli.run(["doctor", "--lang", "ko"])
        #expect(doctor.stdout.contains("무결성:    정상") && doctor.stdout.contains("사용자:    1명"), "\(doctor.stdout)")
        let backends = try await cli.run(["backends", "--lang", "ko"])
        #expect(backends.stdout.contains("SQLite 데이터베이스 하나"), "\(backends.stdout)")
        let verify = try await cli.run(["verify", "--lang", "ko"])
        #expect(verify.stdout.contains("verify sqlite: 검사") && verify.stdout.contains("통과"), "\(verify.stdout)")
    }

    @Test("subcommands accept only the options they use; accounts app takes the app's")
    func onlyUsedOptions() async throws {
        let cli = try CLIRunner("used-options")
        for arguments in [
            ["backends", "--store", "x"], ["verify", "--store", "x"], ["users", "count", "--session-file", "x"],
            ["doctor", "--session-file", "x"],
        ] {
            let result = try await cli.run(arguments)
            #expect(result.status == 2, "\(arguments) was accepted")
        }
        let help = try await cli.run(["backends", "--help"])
        #expect(!help.stdout.contains("--store") && !help.stdout.contains("--session-file"), "\(help.stdout)")
        #expect(try await cli.run(["whoami", "--help"]).stdout.contains("--session-file"))
        #expect(try await cli.run(["app", "--help"]).stdout.contains("--store"))
        // Options reach the subcommand that declares them (a parent used to take --store).
        let store = cli.root + "/given.sqlite"
        let signup = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin", "--store", store],
            stdin: [Self.password, Self.password])
        #expect(signup.status == 0 && FileManager.default.fileExists(atPath: store))
        #expect(try await cli.run(["users", "count", "--store", store]).stdout == "1\n")
    }
}
