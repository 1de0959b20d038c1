import AccountTestSupport
import Foundation
import Testing

/// `ChildProcess`, which every CLI run of the suite goes through: what it returns, and that a
/// child whose end cannot be seen fails the test instead of hanging the whole run.
@Suite("Child process", .timeLimit(.minutes(2)))
struct ChildProcessTests {
    @Test("a child's status, both outputs and the input it read")
    func finished() async throws {
        let outcome = try await ChildProcess.run(
            "/bin/sh", ["-c", #"printf out; printf err >&2; read -r line; printf ' %s' "$line"; exit 3"#],
            input: Data("hello\n".utf8))
        #expect(outcome.status == 3)
        #expect(outcome.reason == .exit)
        #expect(outcome.standardOutput == "out hello")
        #expect(outcome.standardError == "err")
    }

    @Test("a child still running when the limit passes is killed and reported")
    func stillRunning() async throws {
        // An hour, not seconds: on a loaded CI machine the 300 ms limit once fired 100 s late,
        // after a 30 s sleep had ended by itself (the child is killed either way).
        let child = try ChildProcess("/bin/sleep", ["3600"])
        let error = await #expect(throws: Process.Overran.self) {
            try await child.finish(within: .milliseconds(300))
        }
        #expect(error?.exited == false)
        #expect(error?.reason == .limitPassed)
        #expect(error?.description.contains("sleep 3600") == true, "\(String(describing: error))")
        // The limit as `Duration` writes it ("0.3 seconds" today), so a new format cannot fail this.
        #expect(
            error?.description.contains("after \(Duration.milliseconds(300))") == true, "\(String(describing: error))")
        #expect(try await processEnds(child.process.processIdentifier, within: 10), "the child was not killed")
    }

    @Test("a cancelled wait ends at once and kills the child")
    func cancelled() async throws {
        let child = try ChildProcess("/bin/sleep", ["3600"])
        let waiting = Task { try await child.finish() }
        waiting.cancel()
        let error = await #expect(throws: Process.Overran.self) { try await waiting.value }
        #expect(error?.reason == .cancelled)
        #expect(error?.description.contains("when the wait was cancelled") == true, "\(String(describing: error))")
        #expect(try await processEnds(child.process.processIdentifier, within: 10), "the child was not killed")
    }

    /// The hang `scripts/postgres-test-server.sh` once caused: the server it started kept the
    /// script's pipes, and Foundation never saw the script end.
    @Test("a child that exited while a process it started keeps its pipes is reported, not waited for")
    func exitedButHeld() async throws {
        let scratch = try ScratchFolder("child-held")
        let pidFile = scratch.path + "/held.pid"
        let child = try ChildProcess("/bin/sh", ["-c", #"sleep 3600 & echo $! > "$0"; exit 0"#, pidFile])
        #expect(try await processEnds(child.process.processIdentifier, within: 60), "the shell did not exit")
        let written = try String(contentsOfFile: pidFile, encoding: .utf8)
        let held = try #require(Int32(written.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(held, SIGKILL) }
        let error = await #expect(throws: Process.Overran.self) {
            try await child.finish(within: .milliseconds(500))
        }
        #expect(error?.exited == true)
        #expect(error?.reason == .limitPassed)
        #expect(error?.description.contains("holds a descriptor it inherited") == true)
    }
}
