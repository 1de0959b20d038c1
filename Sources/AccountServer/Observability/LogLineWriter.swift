import Dispatch
public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writes whole log lines to a file descriptor from a thread of its own, many lines per
/// `write(2)`, so that a request never waits for the log.
///
/// A request's line goes into a buffer and its thread moves on. The writer thread wakes when
/// the buffer gets its first line, lets lines gather for `batchInterval`, then writes
/// everything gathered with one `write(2)` (a partial write is continued, so lines never
/// interleave or tear). Under load that is one system call for hundreds of lines, where one
/// per line cost about 3 % of the server's CPU; when the descriptor blocks (a log reader
/// that stopped reading), the requests do not block with it: once `capacity` bytes wait, further
/// lines are dropped and counted, and the count is logged as soon as writing goes on.
///
/// The cost: a line reaches the file up to `batchInterval` after it was logged, and lines
/// still in the buffer are lost if the process crashes. `flush()` writes them at once, and
/// `finish()`, which the server calls when it stops, also ends the thread.
public final class LogLineWriter: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var dropped = 0
        var finished = false
    }

    private let file: Int32
    private let capacity: Int
    private let batchInterval: Duration
    private let pending = Mutex(Pending())
    private let droppedTotal = Atomic<Int>(0)
    /// Held while a batch is taken and written, so batches reach the file in order whether the
    /// writer thread or `flush()` writes them.
    private let writing = Mutex(())
    /// Signalled by the line that finds the buffer empty, and by `finish()`.
    private let gathered = DispatchSemaphore(value: 0)
    /// Signalled by `finish()`, so the lines it waits for are not left to gather first.
    private let hurry = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts the writer thread.
    /// - Parameters:
    ///   - file: the descriptor written to (standard error for the server).
    ///   - batchInterval: how long lines gather before a write.
    ///   - capacity: how many bytes may wait; lines beyond are dropped and counted.
    public init(file: Int32 = STDERR_FILENO, batchInterval: Duration = .milliseconds(10), capacity: Int = 1 << 20) {
        self.file = file
        self.batchInterval = batchInterval
        self.capacity = capacity
        let thread = Thread { [self] in writeForever() }
        thread.name = "log writer"
        thread.start()
    }

    /// How many lines were dropped since the writer started, because `capacity` bytes were
    /// already waiting (`/metrics` shows it as `accounts_log_lines_dropped_total`).
    public var droppedLineCount: Int { droppedTotal.load(ordering: .relaxed) }

    /// Queues `line` (one whole line, ending in a newline) for the writer thread. Never waits
    /// for the file.
    ///
    /// After `finish()`, the line is written at once, on the caller's thread.
    public func append(_ line: [UInt8]) {
        let first = pending.withLock { pending -> Bool? in
            guard !pending.finished else { return nil }
            guard pending.bytes.count + line.count <= capacity else {
                pending.dropped += 1
                droppedTotal.add(1, ordering: .relaxed)
                return false
            }
            pending.bytes.append(contentsOf: line)
            return pending.bytes.count == line.count
        }
        switch first {
        case true?: gathered.signal()
        case false?: break
        case nil: writing.withLock { _ in Self.write(line, to: file) }
        }
    }

    /// Writes every line queued so far, on the caller's thread, before it returns.
    public func flush() {
        writing.withLock { _ in
            let (bytes, dropped) = pending.withLock { pending in
                defer {
                    pending.bytes = []
                    pending.dropped = 0
                }
                return (pending.bytes, pending.dropped)
            }
            if dropped > 0 { Self.write(Self.droppedLine(dropped), to: file) }
            Self.write(bytes, to: file)
        }
    }

    /// Writes every line queued so far and ends the thread; lines logged later are written on
    /// their own threads. Returns once the thread has ended, or after `timeout` if the file
    /// takes nothing (a stuck log reader must not keep the server from exiting; the lines still
    /// queued are lost if it exits then). A later call waits the same way, so a caller can
    /// wait again; once the thread has ended, it returns at once.
    /// - Returns: whether the thread has ended, every queued line written.
    @discardableResult
    public func finish(timeout: Duration = .seconds(2)) -> Bool {
        let first = pending.withLock { pending in
            defer { pending.finished = true }
            return !pending.finished
        }
        if first {
            hurry.signal()
            gathered.signal()
        }
        guard ended.wait(timeout: .now() + .microseconds(Self.microseconds(timeout))) == .success else {
            return false
        }
        ended.signal()  // Passed on, for the next call.
        return true
    }

    // The thread's closure holds `self` until `finish()`: a writer nobody finishes (the server
    // logs until the process exits) lives as long as the process.
    private func writeForever() {
        let microseconds = Self.microseconds(batchInterval)
        while true {
            gathered.wait()
            if !isFinished, microseconds > 0 { _ = hurry.wait(timeout: .now() + .microseconds(microseconds)) }
            flush()
            if isFinished {
                // Again: `finish()` may have come while that write ran, after it took its batch.
                // Lines logged before `finish()` are all queued by now, and later ones are not.
                flush()
                ended.signal()
                return
            }
        }
    }

    private var isFinished: Bool { pending.withLock { $0.finished } }

    private static func microseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000)
    }

    /// Writes all of `bytes`, continuing after a partial write or an interruption, and waiting
    /// for room when the descriptor is non-blocking (standard error may be a pipe that another
    /// process set so) rather than losing the rest; gives up silently on any other error, since
    /// a log that cannot be written must not stop the server.
    static func write(_ bytes: [UInt8], to file: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(file, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                guard written < 0 else { return }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    var room = pollfd(fd: file, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&room, 1, -1)
                default: return
                }
            }
        }
    }

    /// The line that says how many lines were dropped while the file did not take them.
    static func droppedLine(_ count: Int) -> [UInt8] {
        Array(
            (#"{"time":"\#(JSONLinesLogHandler.clock.now())","level":"warning","logger":"accounts.log","#
                + #""message":"log lines dropped: the log was not taken in time","dropped":"\#(count)"}"# + "\n").utf8)
    }
}
