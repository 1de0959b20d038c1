import AccountTestSupport
import Foundation
import Testing

/// The harness every CLI test runs `accounts` through: its waits must not hang or crash on a
/// child that prints a lot or reads nothing. Each check would hang or stop the test process
/// with a blocking read of standard output before standard error, or an unchecked write of
/// standard input; the time limit turns a hang into a failure.
@Suite("CLI runner")
struct CLIRunnerTests {
    static let pipeBuffer = 64 * 1024

    @Test(
        "standard error larger than a pipe's buffer, printed before standard output, is read in full",
        .timeLimit(.minutes(1)))
    func bothPipesAtOnce() async throws {
        let cli = try CLIRunner("runner-pipes")
        let bytes = 3 * Self.pipeBuffer
        let result = try await cli.run(
            ["-c", "head -c \(bytes) /dev/zero | tr '\\0' e >&2; echo done"], executable: "/bin/sh")
        #expect(result.status == 0)
        #expect(result.stdout == "done\n")
        #expect(result.stderr.utf8.count == bytes && result.stderr.allSatisfy { $0 == "e" })
    }

    @Test(
        "a child that exits without reading its input (more than a pipe holds) is no error",
        .timeLimit(.minutes(1)))
    func inputNotRead() async throws {
        let cli = try CLIRunner("runner-unread")
        let result = try await cli.run(
            ["-c", "exit 3"], stdinBytes: Array(repeating: 0x61, count: 4 * Self.pipeBuffer), executable: "/bin/sh")
        #expect(result.status == 3, "the child's own status, not a failed write")
    }

    @Test("the child starts with SIGPIPE at its default, as from a shell, though the test process ignores it")
    func childSignals() async throws {
        let cli = try CLIRunner("runner-signals")
        let result = try await cli.run(["-c", "grep '^SigIgn:' /proc/self/status"], executable: "/bin/sh")
        let mask = try #require(
            UInt64(
                result.stdout.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "",
                radix: 16))
        #expect(mask & (1 << (UInt64(SIGPIPE) - 1)) == 0, "SigIgn \(result.stdout)")
    }
}
