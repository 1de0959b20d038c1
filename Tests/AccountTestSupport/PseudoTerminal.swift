import ChildProcesses
import DurableFiles
package import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program on a fresh pseudo-terminal as its controlling terminal, as a person's shell
/// would, and reads what it shows.
///
/// Waiting for the program to show something blocks a thread of this terminal's own queue,
/// never one of Swift's cooperative pool (two threads on a two-core machine): tests run side by
/// side, and two terminals waiting there would stall every other test's tasks, timers and
/// in-process servers for as long as their programs take.
package final class PseudoTerminal: Sendable {
    private let master: Int32
    private let child: SpawnedProcess
    /// The program's process id.
    package var pid: pid_t { child.processIdentifier }
    private let waits = SerialIOQueue(label: "pseudo-terminal")
    /// What the program has shown, and how much of it `expect` has matched.
    private let screen = Mutex<(output: [UInt8], consumed: Int)>(([], 0))

    /// How long `expect` and `waitForExit` wait before they give up, unless told otherwise.
    ///
    /// In CI a program on a terminal runs beside the whole suite on two cores, and a step that
    /// takes a second alone can take a minute there: a zsh completion took 51 s against 3 s
    /// alone, and an import of 1,200 users showed nothing within 15 s. The wait only bounds a
    /// program that hangs; waiting longer changes only how long such a failure takes to be
    /// reported.
    package static let patience: Double = 120

    package struct Timeout: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts `executable` on a new pseudo-terminal of `columns` × 24; with `columns` 0 its
    /// size is left unset (0 × 0), a width the app cannot tell, so it does not wrap.
    package init(
        executable: String, arguments: [String] = [], environment: [String: String], columns: UInt16 = 0
    ) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        var size = winsize(ws_row: columns == 0 ? 0 : 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, &name, nil, &size) == 0 else { throw Timeout(description: "openpty failed") }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        defer { close(slave) }
        // The child opens the terminal by its name, in a session of its own, so that it becomes
        // the child's controlling terminal: `/dev/tty` works, and Ctrl-C signals the child.
        let path = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let terminal = SpawnedProcess.Stream.file(path)
        do {
            child = try SpawnedProcess(
                executable, arguments, environment: environment, standardInput: terminal, standardOutput: terminal,
                standardError: terminal, group: .newSession)
        } catch {
            close(master)
            throw error
        }
        self.master = master
    }

    /// What a child started now lists in its `/proc/self/fd` (`ls -l`): the descriptors it got.
    package static func descriptorsOfNewChild() async throws -> String {
        let child = try PseudoTerminal(
            executable: "/bin/sh", arguments: ["-c", "ls -l /proc/self/fd; echo END; read line"], environment: [:])
        return try await child.expect("END")
    }

    /// The program is killed; `SpawnedProcess` reaps it.
    deinit {
        child.signal(SIGKILL)
        close(master)
    }

    /// Types raw bytes (for input that is not valid UTF-8).
    package func type(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Types `text` (use "\n" for Enter, "\u{4}" for Ctrl-D).
    package func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits (up to `seconds`) until the screen shows `text` after what was already matched.
    ///
    /// The wait does not hold a thread of the pool, so a task can resume well after its
    /// deadline when other tests keep the pool busy (seen in CI: 15 s, in the first seconds of
    /// the suite). So the deadline is only when to stop waiting: what the program showed
    /// meanwhile is read and looked at once more before the wait gives up.
    @discardableResult
    package func expect(_ text: String, seconds: Double = patience) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var lastLook = false
        while true {
            let (fresh, seen) = screen.withLock { screen in
                // Matched as bytes: what the screen shows may hold bytes that are not UTF-8 (an
                // echoed answer), which decoding would change the count of.
                let bytes = Array(screen.output[screen.consumed...])
                let fresh = String(decoding: bytes, as: UTF8.self)
                guard let range = bytes.firstRange(of: Array(text.utf8)) else { return (fresh, String?.none) }
                screen.consumed += range.upperBound
                return (fresh, String(decoding: bytes[..<range.upperBound], as: UTF8.self))
            }
            if let seen { return seen }
            if lastLook { throw Timeout(description: "did not see '\(text)'; the screen shows:\n\(fresh)") }
            let remaining = deadline.timeIntervalSinceNow
            let cameMore = remaining > 0 ? await readSome(timeoutMilliseconds: Int32(remaining * 1000)) : false
            if !cameMore {
                while await readSome(timeoutMilliseconds: 1) {}
                lastLook = true
            }
        }
    }

    /// Everything shown so far.
    package var transcript: String { screen.withLock { String(decoding: $0.output, as: UTF8.self) } }

    /// Waits for the program to end and returns its exit status, reading what it still shows.
    /// As with `expect`, a wait that resumes after its deadline looks once more.
    package func waitForExit(seconds: Double = patience) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let expired = Date() >= deadline
            if !child.isRunning {
                while await readSome(timeoutMilliseconds: 50) {}
                let status = child.terminationStatus
                return child.terminationReason == .exit ? status : 128 + status
            }
            if expired { throw Timeout(description: "the program did not exit; the screen shows:\n\(transcript)") }
            _ = await readSome(timeoutMilliseconds: 50)
        }
    }

    /// Reads what is available within the timeout; `false` when nothing came.
    private func readSome(timeoutMilliseconds: Int32) async -> Bool {
        let master = master
        let ready = await waits.run {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            return poll(&descriptor, 1, max(1, timeoutMilliseconds)) > 0
        }
        guard ready else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        screen.withLock { $0.output += buffer[..<count] }
        return true
    }
}
