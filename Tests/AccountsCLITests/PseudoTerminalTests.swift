import AccountTestSupport
import DurableFiles
import Foundation
import Testing

/// What `PseudoTerminal` passes on to its child: the terminal, and nothing else of the test
/// process's; and how a test waits for what the child shows.
@Suite("Pseudo-terminal children")
struct PseudoTerminalTests {
    @Test("a descriptor the test process opened without close-on-exec does not reach the child")
    func inheritedDescriptorsClosed() async throws {
        let scratch = try ScratchFolder("pty-descriptors")
        let path = scratch.path + "/held-open"
        let descriptor = open(path, O_CREAT | O_RDWR, 0o600)
        #expect(descriptor >= 3)
        defer { close(descriptor) }
        let descriptors = try await PseudoTerminal.descriptorsOfNewChild()
        #expect(!descriptors.contains("held-open"), "the child holds the test's file open: \(descriptors)")
        #expect(descriptors.contains("/dev/pts/"), "the child has no terminal: \(descriptors)")
    }

    /// A thread of Dispatch's blocks most signals, and a child inherits its starter's mask: a
    /// program started from one never saw the SIGINT of a Ctrl-C typed on its terminal.
    @Test("a program on a terminal, started from one of Dispatch's threads, blocks no signal")
    func noSignalBlocked() async throws {
        let (starter, terminal) = try await SerialIOQueue(label: "terminal from dispatch").run {
            let mask = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
            let terminal = try PseudoTerminal(
                executable: "/bin/cat", arguments: ["/proc/self/status"], environment: [:])
            return (blockedSignals(inStatus: mask), terminal)
        }
        #expect(try await terminal.waitForExit() == 0)
        #expect(
            starter != nil && starter != "0000000000000000", "the premise: the starting thread blocks \(starter ?? "?")"
        )
        #expect(blockedSignals(inStatus: terminal.transcript) == "0000000000000000", "\(terminal.transcript)")
    }

    @Test("terminals waiting for their programs leave Swift's cooperative threads to other tasks")
    func waitingLeavesThePoolFree() async throws {
        // More waits than the pool has threads. Had each wait blocked one, the last ones would
        // never start, the typist below would never run, and every wait would time out.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let terminals = try (0..<count).map { _ in
            try PseudoTerminal(
                executable: "/bin/sh", arguments: ["-c", "read line; echo \"GO $line\""], environment: [:])
        }
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, terminal) in terminals.enumerated() {
                group.addTask {
                    starting.yield()
                    try await terminal.expect("GO \(number)", seconds: 60)
                }
            }
            group.addTask {
                var waits = 0
                for await _ in started {
                    waits += 1
                    if waits == count { break }
                }
                for (number, terminal) in terminals.enumerated() { terminal.type("\(number)\n") }
            }
            try await group.waitForAll()
        }
        for terminal in terminals { #expect(try await terminal.waitForExit() == 0) }
    }

    @Test("a wait that resumes after its deadline still reads what came meanwhile and sees the exit")
    func lateWaitLooksOnceMore() async throws {
        let terminal = try PseudoTerminal(
            executable: "/bin/sh", arguments: ["-c", "echo GO; exit 3"], environment: [:])
        // Ended (a zombie, not yet reaped) before either wait starts: a deadline of 0 is a wait
        // whose task was scheduled only after its deadline, as happens when the pool is busy.
        #expect(try await processEnds(terminal.pid, within: 60))
        #expect(try await terminal.expect("GO", seconds: 0) == "GO")
        #expect(try await terminal.waitForExit(seconds: 0) == 3)
    }
}
