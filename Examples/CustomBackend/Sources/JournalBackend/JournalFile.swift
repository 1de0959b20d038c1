import AccountBackendKit
import AccountCore

#if canImport(Glibc)
    import Glibc
#endif

/// The open journal file: one descriptor, locked with `flock` (shared to read, exclusive to
/// write), so several processes, and several repositories in one process, share it safely.
package final class JournalFile: Sendable {
    let path: String
    /// The header read when the file was opened.
    let header: JournalHeader
    private let descriptor: Int32
    private let flushesEveryAppend: Bool

    /// Opens an existing journal.
    /// - Throws: `storeIO` when it cannot be opened; `storeKindMismatch`, `storeCorrupted` or
    ///   `storeVersionUnsupported` when its first line is not a journal header of this version.
    init(path: String, flushesEveryAppend: Bool, recognizer: StoreRecognizer) throws(AccountError) {
        self.path = path
        self.flushesEveryAppend = flushesEveryAppend
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure("open", path) }
        self.descriptor = descriptor
        do throws(AccountError) {
            header = try Self.readHeader(descriptor, path: path, recognizer: recognizer)
        } catch {
            // `deinit` does not run for an instance whose properties were not all set.
            close(descriptor)
            throw error
        }
        guard header.formatVersion <= JournalHeader.formatVersion else {
            throw .storeVersionUnsupported(found: header.formatVersion, supported: JournalHeader.formatVersion)
        }
    }

    deinit { close(descriptor) }

    /// Creates a journal holding only its header, without ever showing a half-written file at
    /// `path`: it is written and flushed under a private name, then hard-linked into place (a
    /// link fails if another process created the journal first, and then theirs is used).
    package static func create(at path: String, header: JournalHeader) throws(AccountError) {
        let temporary = path + ".new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("create", temporary) }
        defer {
            close(fd)
            unlink(temporary)
        }
        let line = JournalCodec.encode(header) + [0x0A]
        guard writeAll(fd, line, at: 0), fsync(fd) == 0 else { throw failure("write", temporary) }
        guard link(temporary, path) == 0 || errno == EEXIST else { throw failure("create", path) }
        try syncFolder(of: path)
    }

    /// Whether the path still names the file this descriptor has open: an upgrade by another
    /// process replaces the journal, and the old file must then not be written.
    var isStillAtPath: Bool {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    /// Replaces the journal at `path` with one holding `lines`, in one rename: written and
    /// flushed under a private name first, so a crash leaves the old journal or the new one.
    static func replace(at path: String, with lines: [[UInt8]]) throws(AccountError) {
        let temporary = path + ".new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("create", temporary) }
        defer { close(fd) }
        let bytes: [UInt8] = lines.flatMap { line in line + [UInt8(0x0A)] }
        guard writeAll(fd, bytes, at: 0), fsync(fd) == 0 else {
            unlink(temporary)
            throw failure("write", temporary)
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw failure("rename", path)
        }
        try syncFolder(of: path)
    }

    /// Runs `body` holding the file's lock.
    func withLock<T>(exclusive: Bool, _ body: () throws(AccountError) -> T) throws(AccountError) -> T {
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { throw Self.failure("lock", path) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// The bytes from `offset` to the end of the file.
    func bytes(from offset: Int) throws(AccountError) -> [UInt8] {
        try Self.bytes(descriptor, path: path, from: offset)
    }

    private static func bytes(_ descriptor: Int32, path: String, from offset: Int) throws(AccountError) -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("stat", path) }
        let count = Int(info.st_size) - offset
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = buffer.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done))
            }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { throw failure("read", path) }
            done += read
        }
        return buffer
    }

    /// Writes `line` at `offset` (the end of the last complete line, cutting off a torn line a
    /// crashed writer left) and, with `sync: full`, flushes it to the disk before returning: the
    /// line, and with it the transaction, is then durable.
    func append(_ line: [UInt8], at offset: Int) throws(AccountError) {
        guard ftruncate(descriptor, off_t(offset)) == 0 else { throw Self.failure("truncate", path) }
        guard Self.writeAll(descriptor, line, at: offset) else {
            // Leave no partial line behind for the next reader to stumble on.
            _ = ftruncate(descriptor, off_t(offset))
            throw Self.failure("write", path)
        }
        guard !flushesEveryAppend || fdatasync(descriptor) == 0 else { throw Self.failure("flush", path) }
    }

    private static func readHeader(
        _ descriptor: Int32, path: String, recognizer: StoreRecognizer
    ) throws(AccountError) -> JournalHeader {
        let start = try bytes(descriptor, path: path, from: 0).prefix(4096)
        if start.isEmpty { throw .storeCorrupted(detail: "\(path) is empty (0 bytes)") }
        guard JournalBackendDescriptor.isJournal(Array(start.prefix(64))) else {
            if let found = recognizer.describe(fileHeader: Array(start.prefix(64))) {
                throw .storeKindMismatch(expected: "journal", found: found)
            }
            throw .storeCorrupted(detail: "\(path) is not a journal (damaged or another kind of file)")
        }
        guard let end = start.firstIndex(of: 0x0A), let header = JournalCodec.decodeHeader(Array(start[..<end])) else {
            throw .storeCorrupted(detail: "\(path): the journal's header line is damaged")
        }
        return header
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            done += written
        }
        return true
    }

    private static func syncFolder(of path: String) throws(AccountError) {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let fd = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open folder", folder) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("flush folder", folder) }
    }

    /// A `storeIO` error naming the call, the path and the operating system's reason.
    static func failure(_ call: String, _ path: String) -> AccountError {
        .storeIO(detail: "\(call) \(path): \(String(cString: strerror(errno)))")
    }
}
