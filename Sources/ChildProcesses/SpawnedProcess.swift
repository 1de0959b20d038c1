package import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, given exactly the three standard streams it is
/// handed, and reaped by whoever waits for it.
///
/// Foundation's `Process.run()` on Linux lists `/proc/self/fd` to find the descriptors to close
/// in the child, and that listing copies 256 bytes of every entry's name where the entry holds
/// far fewer, and can crash there (a `memcpy` at a bad pointer), a known fault of
/// the Swift 6.3 toolchain's Foundation (swift-corelibs-foundation #5472, fixed after it). This
/// asks the C library to close them instead (`posix_spawn_file_actions_addclosefrom_np`), which
/// lists nothing in this process.
///
/// The child also starts with no signal blocked: a thread of Dispatch's blocks most of them,
/// and a child spawned from one used to inherit that mask, so it never saw a SIGTERM. It gets a
/// process group of its own, as with `Process`, or a session of its own (`Group`).
package final class SpawnedProcess: Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        /// The same as this process's.
        case inherited
        /// The null device.
        case nullDevice
        /// A descriptor of this process (a pipe's end, an open file), which stays this
        /// process's to close.
        case descriptor(Int32)
        /// The file at this path, opened for reading and writing in the child: a terminal's
        /// path, so that a child in a session of its own takes it as its controlling terminal.
        case file(String)
    }

    /// Which process group the child is in.
    package enum Group: Sendable {
        /// A group of its own, as with Foundation's `Process`, in this process's session.
        case own
        /// A session of its own (`setsid`), as a terminal's login shell has: the first terminal
        /// it opens, `Stream.file` of a terminal's path, becomes its controlling terminal, so
        /// `/dev/tty` works and Ctrl-C on that terminal signals it.
        case newSession
    }

    /// How the child ended.
    package enum TerminationReason: Sendable, Equatable {
        /// It exited; the status is its exit code.
        case exit
        /// A signal ended it; the status is the signal's number.
        case uncaughtSignal
    }

    /// The child's process id. It stays the child's until the child is reaped: `signal(_:)`
    /// sends nothing after that, when the id may be another process's.
    package let processIdentifier: pid_t
    /// The program and its arguments, for messages.
    package let command: [String]
    /// The raw wait status, once the child has been reaped.
    private let waitStatus = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments`, in `directory` when given, in `group`.
    /// `environment`, when given, replaces this process's.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        standardInput: Stream = .inherited, standardOutput: Stream = .inherited, standardError: Stream = .inherited,
        group: Group = .own
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, stream) in [standardInput, standardOutput, standardError].enumerated() {
            let target = Int32(number)
            switch stream {
            case .inherited: break
            case .nullDevice: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_RDWR, 0)
            }
        }
        if let closeFrom = GNUExtensions.addCloseFrom {
            _ = closeFrom(&actions, 3)
        } else {
            // glibc before 2.34: the descriptors open now, listed by FileManager, whose walk
            // reads each name only as far as its end. (One opened after this listing lives on
            // in the child unless it is close-on-exec, as this module's pipes are.)
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
        if let directory {
            guard let changeDirectory = GNUExtensions.addChangeDirectory,
                changeDirectory(&actions, directory) == 0
            else {
                throw SpawnFailure(command: [executable] + arguments, code: ENOSYS, step: "changing directory")
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        switch group {
        case .own:
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        case .newSession:
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK) | Self.setSessionFlag)
        }
        let variables = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        // glibc reports a program that cannot be run (missing, not executable) here, from the
        // child's failed exec.
        let code = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnFailure(command: [executable] + arguments, code: code, step: "starting") }
        processIdentifier = child
        command = [executable] + arguments
    }

    /// `POSIX_SPAWN_SETSID` (glibc 2.26+), which Swift's Glibc module hides behind `_GNU_SOURCE`.
    private static let setSessionFlag: Int16 = 0x80

    /// A child that is dropped unreaped is reaped by a thread of its own, so it does not stay
    /// a zombie for the rest of this process's life.
    deinit {
        guard waitStatus.withLock({ $0 == nil }) else { return }
        let pid = processIdentifier
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        }
    }

    /// Whether the child has not ended yet (an ended child is reaped here).
    package var isRunning: Bool { reapedStatus() == nil }

    /// Sends `number` to the child, unless it has been reaped.
    package func signal(_ number: Int32) {
        waitStatus.withLock { status in
            if status == nil { kill(processIdentifier, number) }
        }
    }

    /// Sends SIGTERM.
    package func terminate() { signal(SIGTERM) }

    /// Blocks the calling thread until the child has ended, asleep in the kernel meanwhile
    /// (`waitid`, which leaves the reaping to `reapedStatus()`, so that only it reaps).
    package func waitUntilExit() {
        var info = siginfo_t()
        while reapedStatus() == nil {
            if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1, errno != EINTR { break }
        }
    }

    /// The exit code, or the signal's number when `terminationReason` is `.uncaughtSignal`; only
    /// once the child has ended (`waitUntilExit()`).
    package var terminationStatus: Int32 {
        let status = endedStatus()
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    /// How the child ended; only once it has (`waitUntilExit()`).
    package var terminationReason: TerminationReason { endedStatus() & 0x7f == 0 ? .exit : .uncaughtSignal }

    private func endedStatus() -> Int32 {
        guard let status = reapedStatus() else { preconditionFailure("\(command[0]) has not ended yet") }
        return status
    }

    /// The wait status, reaping the child if it has ended and nobody has yet. Only this reaps,
    /// under the lock that `signal(_:)` takes, so no signal goes to a reused process id.
    private func reapedStatus() -> Int32? {
        waitStatus.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier { status = raw }
            }
            return status
        }
    }
}

/// A child process that could not be started.
package struct SpawnFailure: Error, CustomStringConvertible {
    /// The program and its arguments.
    package let command: [String]
    /// The C library's error number.
    package let code: Int32
    /// What failed: starting, or preparing the start.
    package let step: String

    package var description: String {
        "could not start \(command.joined(separator: " ").prefix(200)) (\(step)): \(String(cString: strerror(code)))"
    }
}
