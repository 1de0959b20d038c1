import AccountTestSupport
import ChildProcesses
import DurableFiles
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
        let error = await #expect(throws: SpawnedProcess.Overran.self) {
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
        let error = await #expect(throws: SpawnedProcess.Overran.self) { try await waiting.value }
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
        let error = await #expect(throws: SpawnedProcess.Overran.self) {
            try await child.finish(within: .milliseconds(500))
        }
        #expect(error?.exited == true)
        #expect(error?.reason == .limitPassed)
        #expect(error?.description.contains("holds a descriptor it inherited") == true)
    }

    /// Children are started without Foundation's `Process`, whose start lists `/proc/self/fd`
    /// reading 256 bytes of each short entry, and crashed a test run (2026-12-03). With more
    /// descriptors open than one 32 KiB read of that folder holds, its last entries sit at the
    /// end of the reader's buffer, where that over-read runs past it. Whether it then crashes
    /// depends on what lies beyond, so no test can make it happen on demand; this checks that a
    /// start with so many open works, and that the child gets none of them.
    @Test(
        "a child started while 2,000 other descriptors are open gets only its three streams",
        .enabled(if: Self.openFilesLimit() >= 3_000, "this process may not open 3,000 files (ulimit -n)"))
    func manyDescriptorsOpen() async throws {
        var opened: [Int32] = []
        defer {
            for descriptor in opened { close(descriptor) }
        }
        for _ in 0..<2_000 {
            // Not close-on-exec: the spawner itself must keep them out of the child.
            let descriptor = open("/dev/null", O_RDONLY)
            try #require(descriptor >= 0, "could not open /dev/null: errno \(errno)")
            opened.append(descriptor)
        }
        // The shell's own listing of the folder holds one descriptor (3) while it reads.
        let outcome = try await ChildProcess.run("/bin/sh", ["-c", "ls /proc/self/fd"])
        let listed = Set(outcome.standardOutput.split(separator: "\n").compactMap { Int32($0) })
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(
            listed.isSubset(of: [0, 1, 2, 3]) && listed.isSuperset(of: [0, 1, 2]), "the child had \(listed.sorted())")
    }

    /// Dispatch's threads block most signals, and a child inherits the mask of the thread that
    /// starts it: started from one by Foundation's `Process`, a child never saw a SIGTERM.
    @Test("a child started from one of Dispatch's threads blocks no signal")
    func noSignalBlocked() async throws {
        let (starter, child) = try await SerialIOQueue(label: "spawn from dispatch").run {
            let mask = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
            return (blockedSignals(inStatus: mask), try ChildProcess("/bin/cat", ["/proc/self/status"]))
        }
        let outcome = try await child.finish()
        #expect(
            starter != nil && starter != "0000000000000000", "the premise: the starting thread blocks \(starter ?? "?")"
        )
        #expect(blockedSignals(inStatus: outcome.standardOutput) == "0000000000000000", "\(outcome.standardOutput)")
    }

    /// Foundation's own `waitUntilExit()` polled a run loop with nothing in it and kept a core
    /// busy for as long as the child ran: on the 2-core machine a child that never ended stalled
    /// the whole suite for 15 minutes (2026-11-29). `SpawnedProcess` must not do the same.
    @Test("a wait for a child's exit sleeps while the child runs, instead of keeping a core busy")
    func waitSleeps() async throws {
        let input = try FileHandle.closeOnExecPipe()
        let process = try SpawnedProcess(
            "/bin/sh", ["-c", "read -r line; exit 5"], standardInput: .descriptor(input.read.fileDescriptor))
        try input.read.close()
        // A thread's name shows in /proc as at most 15 bytes.
        let name = "exitwait\(process.processIdentifier)".prefix(15)
        let waiting = Task {
            await SerialIOQueue(label: "wait asleep").run { () -> Int32 in
                let previous = Thread.current.name
                Thread.current.name = String(name)
                defer { Thread.current.name = previous }
                process.waitUntilExit()
                return process.terminationStatus
            }
        }
        // The kernel's word for the waiting thread, every 10 ms for at most 10 s, until it has
        // read S (sleeping) three times in a row; a thread that polls reads R (running).
        var states: [Character] = []
        var looks = 0
        while states.suffix(3) != ["S", "S", "S"], looks < 1000 {
            if let state = Self.state(ofThreadNamed: String(name)) { states.append(state) }
            looks += 1
            try await Task.sleep(for: .milliseconds(10))
        }
        try input.write.writeToChildAndClose(Data("done\n".utf8))
        #expect(await waiting.value == 5, "the wait returned the child's status once it exited")
        #expect(states.suffix(3) == ["S", "S", "S"], "the waiting thread read \(String(states.suffix(30)))")
    }

    /// How many files this process may have open (its soft `RLIMIT_NOFILE`).
    static func openFilesLimit() -> rlim_t {
        var limit = rlimit()
        return getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? limit.rlim_cur : 0
    }

    /// The state letter in `/proc/self/task/TID/stat` of this process's thread called `name`.
    static func state(ofThreadNamed name: String) -> Character? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            let folder = "/proc/self/task/" + task
            guard (try? String(contentsOfFile: folder + "/comm", encoding: .utf8))?.dropLast() == name[...],
                let stat = try? String(contentsOfFile: folder + "/stat", encoding: .utf8)
            else { continue }
            return schedulingState(inStat: stat)
        }
        return nil
    }
}
