import AccountServer
import AccountTestSupport
import DurableFiles
import Foundation
import Logging
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server's log writer: lines queued by many threads reach the file whole and in each
/// thread's order, and a file that stops taking lines never holds up the threads that log.
@Suite("Log line writer")
struct LogLineWriterTests {
    /// A pipe, read to its end off the cooperative pool once `reading` is called.
    final class LogPipe: Sendable {
        private let pipe = Pipe()
        var readEnd: Int32 { pipe.fileHandleForReading.fileDescriptor }
        var writeEnd: Int32 { pipe.fileHandleForWriting.fileDescriptor }
        /// How many bytes the pipe holds.
        let size: Int

        // Linux's fcntl commands for a pipe's size (F_LINUX_SPECIFIC_BASE + 7 and + 8), which
        // Swift's Glibc module does not carry.
        static let setPipeSize: Int32 = 1_031
        static let getPipeSize: Int32 = 1_032

        /// Foundation's `Pipe`, whose ends are close-on-exec: a child another test starts
        /// meanwhile must not keep the write end open.
        init(size: Int32? = nil) throws {
            if let size {
                try #require(fcntl(pipe.fileHandleForWriting.fileDescriptor, Self.setPipeSize, size) >= size)
            }
            self.size = Int(fcntl(pipe.fileHandleForWriting.fileDescriptor, Self.getPipeSize))
        }

        /// Closes the write end and returns everything `reading` read from the pipe.
        func closeAndRead(_ reading: Task<Data, Never>) async throws -> String {
            try pipe.fileHandleForWriting.close()
            return String(decoding: await reading.value, as: UTF8.self)
        }

        /// Starts reading to the end (off the cooperative pool, `readToEndOfFile()`).
        func reading() -> Task<Data, Never> {
            let handle = pipe.fileHandleForReading
            return Task { await handle.readToEndOfFile() }
        }
    }

    /// `finish(timeout:)`, which blocks until the writer thread ends, called off the cooperative
    /// pool: blocking a pool thread there could keep the task that reads the pipe from starting,
    /// and the writer thread waits for that reader.
    static func finish(_ writer: LogLineWriter, timeout: Duration = .seconds(30)) async -> Bool {
        await SerialIOQueue(label: "finish the log writer").run { writer.finish(timeout: timeout) }
    }

    @Test("lines from many threads arrive whole, each thread's in order, and finish() writes the last")
    func manyThreads() async throws {
        let log = try LogPipe()
        let reading = log.reading()
        // A batch interval longer than the test: every line here goes out through finish().
        let writer = LogLineWriter(file: log.writeEnd, batchInterval: .seconds(3_600))
        let threads = 8
        let perThread = 2_000
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for line in 0..<perThread {
                        writer.append(Array("\(thread) \(line) \(String(repeating: "x", count: line % 97))\n".utf8))
                    }
                }
            }
        }
        _ = await Self.finish(writer)
        let text = try await log.closeAndRead(reading)
        var next = [Int](repeating: 0, count: threads)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            let thread = try #require(parts.count == 3 ? Int(parts[0]) : nil, "a torn line: \(line)")
            #expect(Int(parts[1]) == next[thread], "thread \(thread)'s lines in order")
            #expect(parts[2].count == next[thread] % 97, "a whole line")
            next[thread] += 1
        }
        #expect(next == [Int](repeating: perThread, count: threads), "every line, once")
        #expect(text.hasSuffix("\n"))
    }

    @Test("lines wait at most the batch interval, without flush() or finish()", .timeLimit(.minutes(1)))
    func batchInterval() async throws {
        let log = try LogPipe()
        let writer = LogLineWriter(file: log.writeEnd, batchInterval: .milliseconds(1))
        writer.append(Array("one\n".utf8))
        // Read as it comes, with the writer still running: the line comes without being asked
        // for. (A poll with a limit, so a line that never comes fails the test, not hangs it.)
        var byte: UInt8 = 0
        var received: [UInt8] = []
        var ready = pollfd(fd: log.readEnd, events: Int16(POLLIN), revents: 0)
        while received.last != UInt8(ascii: "\n"), poll(&ready, 1, 30_000) == 1, read(log.readEnd, &byte, 1) == 1 {
            received.append(byte)
        }
        #expect(String(decoding: received, as: UTF8.self) == "one\n")
        writer.finish()
    }

    /// Also with the descriptor non-blocking (standard error may be a pipe another process
    /// set so): a full pipe then fails the write with EAGAIN, and the writer must wait for room,
    /// not lose the batch.
    @Test(
        "a file that takes nothing never holds up append(): lines beyond the capacity are dropped and counted",
        .timeLimit(.minutes(1)), arguments: ["blocking", "non-blocking"])
    func stuckFile(_ mode: String) async throws {
        let log = try LogPipe(size: 4_096)
        let flags = fcntl(log.writeEnd, F_GETFL)
        try #require(fcntl(log.writeEnd, F_SETFL, mode == "blocking" ? flags & ~O_NONBLOCK : flags | O_NONBLOCK) == 0)
        let capacity = 16_384
        let writer = LogLineWriter(file: log.writeEnd, batchInterval: .zero, capacity: capacity)
        let line = Array((String(repeating: "y", count: 99) + "\n").utf8)
        let sent = 2_000
        // Nothing reads the pipe yet: the writer thread blocks once 4 KiB are in it, and these
        // appends must all return all the same (a blocking one would hang the test).
        for _ in 0..<sent { writer.append(line) }
        let reading = log.reading()
        _ = await Self.finish(writer)
        let text = try await log.closeAndRead(reading)
        let lines = text.split(separator: "\n")
        let kept = lines.filter { $0.allSatisfy { $0 == "y" } && $0.count == 99 }.count
        let notices = lines.filter { $0.contains(#""message":"log lines dropped"#) }
        #expect(kept + notices.count == lines.count, "only whole lines: \(lines.count) lines")
        // What the pipe held, the batch stuck in the write, and the buffer behind it.
        #expect(kept <= (log.size + 2 * capacity) / line.count, "no more than the pipe and the writer held")
        // One notice per write that found lines dropped: usually one, two when the writer
        // thread got the processor only after the buffer had filled once already.
        #expect(!notices.isEmpty, "the drops are reported")
        var dropped = 0
        for notice in notices {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(notice.utf8)) as? [String: Any])
            #expect(object["level"] as? String == "warning")
            dropped += try #require((object["dropped"] as? String).flatMap { Int($0) }, "\(object)")
        }
        #expect(kept + dropped == sent, "every line written or counted as dropped")
        #expect(writer.droppedLineCount == dropped)
        let metrics = ServerMetrics(gate: HashingGate(concurrency: 1, queueLimit: 1), log: writer)
        for _ in 0..<2 {
            #expect(metrics.emit().contains("\naccounts_log_lines_dropped_total \(dropped)\n"), "counted once")
        }
    }

    @Test(
        "finish() gives up after its timeout when the file takes nothing, so a server can exit",
        .timeLimit(.minutes(1)))
    func finishTimesOut() async throws {
        let log = try LogPipe(size: 4_096)
        let writer = LogLineWriter(file: log.writeEnd, batchInterval: .zero, capacity: 16_384)
        let line = Array((String(repeating: "z", count: 99) + "\n").utf8)
        for _ in 0..<200 { writer.append(line) }
        let start = ContinuousClock.now
        #expect(!(await Self.finish(writer, timeout: .milliseconds(200))), "not every line was written")
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(200), "it waited for the writer first: \(waited)")
        // Read now, the writer thread writes the rest and ends; a second finish() sees it end
        // (before the pipe's write end is closed under it).
        let reading = log.reading()
        #expect(await Self.finish(writer, timeout: .seconds(30)), "the thread ended once the pipe was read")
        let text = try await log.closeAndRead(reading)
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count == 99 || $0.contains(#""message":"log lines dropped"#) }, "whole lines")
        #expect(lines.count > 4_096 / line.count, "more than the pipe held before the read")
    }

    @Test("a line through the writer is the line the handler writes itself")
    func sameLine() async throws {
        let direct = try LogPipe()
        let batched = try LogPipe()
        let readingDirect = direct.reading()
        let readingBatched = batched.reading()
        let writer = LogLineWriter(file: batched.writeEnd, batchInterval: .seconds(3_600))
        for logger in [
            Logger(label: "test") { JSONLinesLogHandler(label: $0, file: direct.writeEnd) },
            Logger(label: "test") { JSONLinesLogHandler(label: $0, writer: writer) },
        ] {
            logger.info("request", metadata: ["path": "/v1/me", "status": .stringConvertible(200)])
        }
        _ = await Self.finish(writer)
        let withoutTime = { (text: String) in text.replacing(/"time":"[^"]*"/, with: "") }
        let expected = withoutTime(try await direct.closeAndRead(readingDirect))
        #expect(expected.contains(#""path":"/v1/me""#))
        #expect(withoutTime(try await batched.closeAndRead(readingBatched)) == expected)
    }
}
