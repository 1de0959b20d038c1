import AccountTestSupport
import ChildProcesses
import Foundation
import Testing

/// The watchdog that ends a test's server when the test process ends without stopping it. The
/// process's end is what closes the watchdog's pipe; `fire()` and a drop close it the same way.
@Suite("Child watchdog")
struct ChildWatchdogTests {
    /// A child that runs until a line comes on its standard input, then exits 7: an exit by
    /// SIGKILL can only be the watchdog's. Marked for `watchdog` when one is given.
    static func child(watchedBy watchdog: ChildWatchdog?) throws -> (process: SpawnedProcess, input: FileHandle) {
        let input = try FileHandle.closeOnExecPipe()
        let process = try SpawnedProcess(
            "/bin/sh", ["-c", "read -r line; exit 7"],
            environment: ProcessInfo.processInfo.environment.merging(watchdog?.environment ?? [:]) { $1 },
            standardInput: .descriptor(input.read.fileDescriptor))
        try input.read.close()
        return (process, input.write)
    }

    /// The waits below are bounded (50 s, inside the tests' one-minute limit): a kill that never
    /// comes is then an `Overran` failure, where a bare wait outlived that limit, which cancels
    /// the test but cannot end a wait for a process, and held the whole run (2026-11-29).
    static let patience = Duration.seconds(50)

    @Test("a closed lifeline, not disarmed, kills the watched child and only it", .timeLimit(.minutes(1)))
    func lifelineClosed() async throws {
        let watchdog = try ChildWatchdog()
        let watched = try Self.child(watchedBy: watchdog)
        let other = try Self.child(watchedBy: nil)
        try await watchdog.fire()
        #expect(try await watched.process.exitStatus(within: Self.patience) == SIGKILL)
        #expect(watched.process.terminationReason == .uncaughtSignal)
        #expect(other.process.isRunning, "an unmarked child is left alone")
        try other.input.writeToChildAndClose(Data("done\n".utf8))
        #expect(try await other.process.exitStatus(within: Self.patience) == 7)
    }

    @Test("a dropped watchdog, not disarmed, kills the child", .timeLimit(.minutes(1)))
    func dropped() async throws {
        var child: (process: SpawnedProcess, input: FileHandle)?
        do {
            let watchdog = try ChildWatchdog()
            child = try Self.child(watchedBy: watchdog)
        }
        let process = try #require(child?.process)
        #expect(try await process.exitStatus(within: Self.patience) == SIGKILL)
        #expect(process.terminationReason == .uncaughtSignal)
    }

    @Test("lines meant for another watchdog neither disarm nor fire this one", .timeLimit(.minutes(1)))
    func strayLines() async throws {
        let watchdog = try ChildWatchdog()
        let watched = try Self.child(watchedBy: watchdog)
        // Written through a descriptor of its own on the same pipe, as a write to a descriptor
        // number that another part of the process closed and that was reused for the lifeline.
        // Close-on-exec, as the lifeline is: `FileHandle(forWritingTo:)` opens without it, and a
        // child another test started in that moment kept the pipe open, so `fire()` never ended.
        let descriptor = open("/proc/self/fd/\(watchdog.lifelineDescriptor)", O_WRONLY | O_CLOEXEC)
        try #require(descriptor >= 0, "errno \(errno)")
        let stray = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try stray.writeToChildAndClose(Data("disarm\ndisarm \(UUID().uuidString)\n".utf8))
        #expect(watched.process.isRunning, "a stray line fired the watchdog")
        try await watchdog.fire()
        #expect(
            try await watched.process.exitStatus(within: Self.patience) == SIGKILL, "a stray line disarmed the watchdog"
        )
    }

    @Test("a disarmed watchdog leaves the child alone", .timeLimit(.minutes(1)))
    func disarmed() async throws {
        let watchdog = try ChildWatchdog()
        let child = try Self.child(watchedBy: watchdog)
        try await watchdog.disarm()
        try child.input.writeToChildAndClose(Data("done\n".utf8))
        #expect(
            try await child.process.exitStatus(within: Self.patience) == 7,
            "ended by its own exit, not the watchdog's SIGKILL")
        #expect(child.process.terminationReason == .exit)
    }

    @Test("no other child inherits the lifeline, which would keep it open after this process ends")
    func notInherited() async throws {
        let watchdog = try ChildWatchdog()
        let watched = try Self.child(watchedBy: watchdog)
        let lifeline = try FileManager.default.destinationOfSymbolicLink(
            atPath: "/proc/self/fd/\(watchdog.lifelineDescriptor)")
        #expect(lifeline.hasPrefix("pipe:"), "\(lifeline)")
        #expect(
            try Self.writeEnds(of: lifeline, heldBy: getpid()) == ["\(watchdog.lifelineDescriptor)"],
            "this process holds the write end, and the check sees it")
        let other = try Self.child(watchedBy: nil)
        for pid in [other.process.processIdentifier, watched.process.processIdentifier, watchdog.processIdentifier] {
            let writers = try Self.writeEnds(of: lifeline, heldBy: pid)
            #expect(writers.isEmpty, "pid \(pid) holds the lifeline's write end as \(writers)")
        }
        try await watchdog.fire()
        try other.input.writeToChildAndClose(Data("done\n".utf8))
        #expect(try await other.process.exitStatus(within: Self.patience) == 7)
        #expect(try await watched.process.exitStatus(within: Self.patience) == SIGKILL)
    }

    /// A copy of the write end that a child started by another thread takes in the moment between
    /// the pipe's creation and its marking keeps the watchdog from ever firing (CI, 2026-12-02).
    /// A plain `posix_spawn`, with no descriptor closed, started in that very moment stands for
    /// any such child.
    @Test("a child started while the lifeline is made does not keep it", .timeLimit(.minutes(1)))
    func childStartedWhileMade() async throws {
        var bystander: pid_t = 0
        let watchdog = try ChildWatchdog {
            bystander = try Self.spawnKeepingDescriptors(["/bin/sh", "-c", "read -r line"])
        }
        defer {
            kill(bystander, SIGKILL)
            var status: Int32 = 0
            waitpid(bystander, &status, 0)
        }
        let lifeline = try FileManager.default.destinationOfSymbolicLink(
            atPath: "/proc/self/fd/\(watchdog.lifelineDescriptor)")
        #expect(try Self.writeEnds(of: lifeline, heldBy: bystander).isEmpty, "the bystander holds the lifeline")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(watchdog.processIdentifier)/fd/0")
                == lifeline, "the shell reads the lifeline")
        #expect(try Self.readEnds(of: lifeline, heldBy: getpid()).isEmpty, "this process let go of the read end")
        try await watchdog.fire()
    }

    /// Starts `arguments` with every descriptor of this process that is not close-on-exec, as a
    /// C library's own spawn would.
    static func spawnKeepingDescriptors(_ arguments: [String]) throws -> pid_t {
        let argv = arguments.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        return pid
    }

    /// The descriptors of `pid` open for writing on `pipe` (`pipe:[inode]`; both ends of a pipe
    /// read so, and the watching shell holds the read end, so the access mode tells them apart).
    static func writeEnds(of pipe: String, heldBy pid: Int32) throws -> [String] {
        try descriptors(of: pipe, heldBy: pid) { $0 != Int(O_RDONLY) }
    }

    /// The descriptors of `pid` open for reading only on `pipe`.
    static func readEnds(of pipe: String, heldBy pid: Int32) throws -> [String] {
        try descriptors(of: pipe, heldBy: pid) { $0 == Int(O_RDONLY) }
    }

    /// The descriptors of `pid` on `pipe` whose access mode (`O_ACCMODE` of their flags) passes
    /// `mode`.
    static func descriptors(of pipe: String, heldBy pid: Int32, mode: (Int) -> Bool) throws -> [String] {
        let folder = "/proc/\(pid)/fd"
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { fd in
            // A descriptor closed since the listing (this process opens and closes files all the
            // time, for the tests running beside this one) is not held.
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + fd)) == pipe,
                let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)
            else { return false }
            let flags = info.split(separator: "\n").first { $0.hasPrefix("flags:") }.flatMap {
                Int($0.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8)
            }
            return mode(try #require(flags, "no flags in \(info)") & Int(O_ACCMODE))
        }
    }
}
