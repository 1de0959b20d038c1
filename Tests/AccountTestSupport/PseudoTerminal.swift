import ChildProcessSupport
package import Foundation
import StoreSupport
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
    /// The program's process id.
    package let pid: pid_t
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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // In a new session, opening the terminal makes it the controlling one (/dev/tty works).
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        // Tests run side by side: a descriptor another test opened without close-on-exec (a
        // lock file, a pipe's end) must not live on in this child, holding the lock or the pipe
        // open for as long as the child runs.
        if let closeFrom = GNUExtensions.addCloseFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc 2.26+), hidden from Swift behind _GNU_SOURCE.
        posix_spawnattr_setflags(&attributes, 0x80)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        guard posix_spawn(&child, executable, &actions, &attributes, argv, envp) == 0 else {
            close(master)
            throw Timeout(description: "posix_spawn failed")
        }
        self.master = master
        pid = child
    }

    /// What a child started now lists in its `/proc/self/fd` (`ls -l`): the descriptors it got.
    package static func descriptorsOfNewChild() async throws -> String {
        let child = try PseudoTerminal(
            executable: "/bin/sh", arguments: ["-c", "ls -l /proc/self/fd; echo END; read line"], environment: [:])
        return try await child.expect("END")
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
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
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                while await readSome(timeoutMilliseconds: 50) {}
                return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
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
