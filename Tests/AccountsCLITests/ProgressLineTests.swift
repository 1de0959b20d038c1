import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// Long operator work shows a progress line on a terminal, and nothing extra in a pipe or with
/// `--json`.
@Suite("Progress")
struct ProgressLineTests {
    @Test("doctor on a terminal shows a progress line; in a pipe and with --json it does not")
    func doctorProgress() async throws {
        let cli = try CLIRunner("progress-doctor")
        let path = try await WrittenStore.make(cli, count: 3_000)
        let terminal = try PseudoTerminal(
            executable: CLIRunner.executable, arguments: ["doctor", "--store", path], environment: cli.environment)
        #expect(try await terminal.waitForExit() == 0)
        #expect(terminal.transcript.contains("checked users: 500 of 3000"), "\(terminal.transcript)")
        #expect(terminal.transcript.contains("users:     3000"))
        // Its 3,000 unusable hashes: 20 by name, then how many more.
        #expect(terminal.transcript.contains("… and 2980 more (accounts doctor --json lists them all)"))
        let json = try PseudoTerminal(
            executable: CLIRunner.executable, arguments: ["doctor", "--store", path, "--json"],
            environment: cli.environment)
        #expect(try await json.waitForExit() == 0)
        #expect(!json.transcript.contains("checked users"), "\(json.transcript)")
        let piped = try await cli.run(["doctor", "--store", path])
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    }

    @Test("export and migrate on a terminal show their progress too")
    func transferProgress() async throws {
        let cli = try CLIRunner("progress-transfer")
        let path = try await WrittenStore.make(cli, count: 1_200)
        let export = try PseudoTerminal(
            executable: CLIRunner.executable,
            arguments: ["export", "--store", path, "--output", cli.root + "/all.jsonl"],
            environment: cli.environment)
        #expect(try await export.waitForExit() == 0)
        #expect(export.transcript.contains("exported users: 500 of 1200"), "\(export.transcript)")
        let migrate = try PseudoTerminal(
            executable: CLIRunner.executable,
            arguments: ["migrate", "--store", path, "--to-backend", "lmdb", "--to-store", cli.root + "/m.lmdb"],
            environment: cli.environment)
        #expect(try await migrate.waitForExit() == 0)
        #expect(migrate.transcript.contains("migrated users: 500 of 1200"), "\(migrate.transcript)")
    }

    @Test("with --lang ko the progress line is Korean, like the summary after it")
    func koreanProgress() async throws {
        let cli = try CLIRunner("progress-korean")
        let path = try await WrittenStore.make(cli, count: 1_200)
        let export = try await cli.run(["export", "--store", path, "--output", cli.root + "/all.jsonl"])
        #expect(export.status == 0, "\(export.stderr)")
        let importing = try PseudoTerminal(
            executable: CLIRunner.executable,
            arguments: [
                "import", "--input", cli.root + "/all.jsonl", "--store", cli.root + "/copy.sqlite", "--lang", "ko",
            ],
            environment: cli.environment)
        #expect(try await importing.waitForExit() == 0)
        // The first batch is 1,000 users: the first line drawn counts them.
        #expect(importing.transcript.contains("가져온 사용자: 1000 / 1200 (초당 "), "\(importing.transcript)")
        #expect(importing.transcript.contains("사용자 1200명과 세션 0개를 가져왔습니다."), "\(importing.transcript)")
        #expect(!importing.transcript.contains("imported users"), "\(importing.transcript)")
    }
}
