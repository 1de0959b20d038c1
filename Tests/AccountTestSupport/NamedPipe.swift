import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A FIFO in a test's folder, held open for reading and writing so that a command opening it
/// neither blocks nor finds it without a reader, and so that what the command writes can be
/// read back without waiting.
package final class NamedPipe {
    package let path: String
    private let descriptor: Int32

    package init(_ path: String) throws {
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.path = path
        // O_RDWR on a FIFO never blocks on Linux; O_NONBLOCK makes an empty pipe read as empty.
        descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    /// Whether the path is still a FIFO (not replaced by a regular file).
    package var isStillAPipe: Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// What has been written into the pipe so far.
    package func readAvailable() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count <= 0 { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
