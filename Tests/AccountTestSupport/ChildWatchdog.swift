import ChildProcesses
import Foundation
import Synchronization

/// Kills a long-lived child (a server a test started) when the test process ends without
/// stopping it: a crash, a fatal error or a SIGKILL runs no `deinit`, and the orphan would keep
/// its port and store until the machine restarts.
///
/// A small `sh` reads a pipe whose only writer is this process. The kernel closes that end when
/// the process ends, however it ends; the shell then reads end-of-file and sends SIGKILL to
/// every process whose environment carries this watchdog's `environment` (its mark). `disarm()`
/// tells it to exit without killing, before a test stops the child itself; dropping the
/// watchdog without `disarm()` closes the pipe, and so kills the child.
///
/// The shell starts before the child and finds it by its mark, not by a process id handed over
/// after the start: a test process that died between starting the child and starting its
/// watchdog left the child running in 2 of 20 runs that killed it while servers started.
/// `PR_SET_PDEATHSIG` would not do either: it fires when the *thread* that started the child
/// ends, and Swift's pool threads come and go.
package final class ChildWatchdog: Sendable {
    /// The variable that marks a watched child, in its environment.
    package static let markVariable = "TEST_CHILD_WATCHDOG"

    /// What to add to a child's environment to put it under this watchdog.
    package let environment: [String: String]

    /// The write end, until it is closed: by `disarm()`, `fire()` or `deinit`, at once, rather
    /// than whenever the last reference to the handle goes.
    private let lifeline: Mutex<FileHandle?>
    private let shell: SpawnedProcess
    /// The write end's descriptor number, kept for the test that looks for it in other processes.
    package let lifelineDescriptor: Int32

    /// The word that sends the shell away without a kill, when the mark follows it.
    private static let disarmWord = "disarm"
    /// This watch's mark: the value of `markVariable` in its children's environment.
    private let mark: String

    /// Starts a watch; the children to watch are those started with `environment` from now on.
    /// `pipeMade` runs as soon as the lifeline's pipe exists: the moment a child that another
    /// thread starts could take a copy of it (its test starts one there).
    package init(pipeMade: () throws -> Void = {}) throws {
        // `disarm()` writes to the shell: a shell already gone must fail that write, not kill
        // this process with SIGPIPE.
        ChildProcess.ignoreBrokenPipes()
        let mark = UUID().uuidString
        // Close-on-exec from the start: a child another test starts at this moment must not
        // keep the write end, and with it the lifeline, open (see `closeOnExecPipe()`).
        let pipe = try FileHandle.closeOnExecPipe()
        try pipeMade()
        // Only the word with this watchdog's own mark disarms it, and any other line is passed
        // over: bytes that reach this pipe by mistake (a descriptor number another part of the
        // process closed and reused) can neither disarm it nor fire it.
        // One grep reads every process's environment (each a list of NUL-ended entries): `-x`
        // takes only the whole entry, `-l` names the files that have it.
        let shell = try SpawnedProcess(
            "/bin/sh",
            [
                "-c",
                """
                while read -r word; do
                    [ "$word" = "\(Self.disarmWord) $0" ] && exit 0
                done
                for environ in $(grep -lxz "\(Self.markVariable)=$0" /proc/[0-9]*/environ 2>/dev/null); do
                    pid=${environ#/proc/}
                    kill -KILL "${pid%/environ}" 2>/dev/null
                done
                exit 0
                """,
                mark,
            ],
            standardInput: .descriptor(pipe.read.fileDescriptor), standardOutput: .nullDevice,
            standardError: .nullDevice)
        // The shell has its own copy now.
        try pipe.read.close()
        environment = [Self.markVariable: mark]
        self.mark = mark
        lifeline = Mutex(pipe.write)
        lifelineDescriptor = pipe.write.fileDescriptor
        self.shell = shell
    }

    /// The watching shell's process id.
    package var processIdentifier: Int32 { shell.processIdentifier }

    /// Ends the watch without a kill; returns once the shell has exited (see `shellExit()`).
    package func disarm() async throws {
        try takeLifeline()?.writeToChildAndClose(Data("\(Self.disarmWord) \(mark)\n".utf8))
        try await shellExit()
    }

    /// Ends the watch the way this process's end would: the shell kills the watched children.
    /// Returns once the shell has exited (see `shellExit()`).
    package func fire() async throws {
        try takeLifeline()?.close()
        try await shellExit()
    }

    /// Waits for the shell to exit, which it does once it has read its word or the end of its
    /// input, and has sent its kills: 40 seconds is far more than that takes, and short enough
    /// that a shell kept waiting (another holder of the write end) fails as an overrun inside a
    /// test's one-minute limit rather than as that limit, which names no cause.
    private func shellExit() async throws {
        _ = try await shell.exitStatus(within: .seconds(40))
    }

    deinit { try? takeLifeline()?.close() }

    /// The write end, once: whoever takes it closes it.
    private func takeLifeline() -> FileHandle? {
        lifeline.withLock { handle in
            defer { handle = nil }
            return handle
        }
    }
}
