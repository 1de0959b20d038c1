import AccountCore
import AccountCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// A source file read forward a chunk at a time, so that a file of any size is read in the
/// same memory: the readers of each form (CSV, JSON, JSON Lines) take its bytes from ``chunk``
/// and ask for the next with ``refill()``. On the way it takes the file's SHA-256 (the
/// import's fingerprint: a resumed import knows its file) and skips a UTF-8 byte order mark,
/// which spreadsheets write before a CSV's first column name.
final class SourceBytes {
    /// Bytes read per chunk.
    static let chunkSize = 1 << 20

    /// The current chunk; ``index`` is the next byte to read in it.
    private(set) var chunk: [UInt8] = []
    var index = 0
    /// Bytes before the current chunk.
    private(set) var offset: Int64 = 0
    /// The file's size when it is a regular file (a pipe's is not known).
    let size: Int64?
    /// Whether the file began with a UTF-8 byte order mark (skipped).
    private(set) var hadByteOrderMark = false
    private let fd: Int32
    private var digest = SHA256Stream()
    private var ended = false
    private let failure: (String) -> AccountError

    /// Opens `path`; `failure` makes the error naming the file from the system's reason.
    init(path: String, failure: @escaping (String) -> AccountError) throws(AccountError) {
        self.failure = failure
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open: " + String(cString: strerror(errno))) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw failure("open: " + String(cString: strerror(EISDIR)))
        }
        size = (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
        guard try refill() else { return }
        if chunk.starts(with: [0xEF, 0xBB, 0xBF]) {
            hadByteOrderMark = true
            index = 3
        }
    }

    deinit { close(fd) }

    /// Bytes read so far, for progress.
    var position: Int64 { offset + Int64(index) }

    /// The byte at ``index``, reading the next chunk when this one is used up; nil at the end.
    @inline(__always)
    func peek() throws(AccountError) -> UInt8? {
        if index < chunk.count { return chunk[index] }
        guard try refill() else { return nil }
        return chunk[index]
    }

    /// Reads the next chunk in place of the used one; `false` at the end of the file.
    func refill() throws(AccountError) -> Bool {
        guard !ended else { return false }
        offset += Int64(chunk.count)
        chunk.removeAll(keepingCapacity: true)
        index = 0
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read: " + String(cString: strerror(errno)))
            }
            if count == 0 {
                ended = true
                return false
            }
            chunk = Array(buffer.prefix(count))
            digest.update(chunk)
            return true
        }
    }

    /// Skips white space (JSON's: space, tab, line feed, carriage return).
    func skipWhiteSpace() throws(AccountError) {
        while let byte = try peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// Reads the rest of the file (nothing is kept) and returns its SHA-256 in hex: the digest
    /// of every byte, the mark included.
    func finishDigest() throws(AccountError) -> String {
        while try refill() {}
        return digest.hexDigest()
    }
}
