#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads what a path gives until its end, whatever it is: a regular file, or a pipe or device
/// that tells nothing of its size (`/dev/fd/63` from bash's `<(…)`, a FIFO), read once, as
/// such an input can be read only once.
public enum WholeInput {
    /// A failed system call: which one, and the system's reason.
    public struct Failure: Error, Sendable {
        /// `open` or `read`.
        public let operation: String
        /// The `errno` it set (`EISDIR` for a folder).
        public let code: Int32
        /// The system's words for `code`.
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Every byte of `path`, read until its end.
    /// - Throws: a `read` failure with `EFBIG` once more than `limit` bytes came, as they would
    ///   forever from a device such as `/dev/zero`.
    public static func read(_ path: String, atMost limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(operation: "open", code: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(operation: "open", code: EISDIR) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", code: errno)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw Failure(operation: "read", code: EFBIG) }
            bytes.append(contentsOf: chunk.prefix(count))
        }
    }
}
