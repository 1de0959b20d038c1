import AccountBackendKit
public import AccountCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads and crash-safe whole-file replacement.
public enum StoreFile {
    /// The identity of a file version: a rename gives a new inode, a rewrite a new size or time.
    public struct Version: Sendable, Hashable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modifiedNanoseconds: Int64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }
    }

    /// The current version of the file at `path`, or `nil` when it does not exist.
    public static func version(of path: String) throws(AccountError) -> Version? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw POSIXFailure.error("stat", path: path)
        }
        return Version(info)
    }

    /// Reads the whole file and the version that was read.
    public static func read(_ path: String) throws(AccountError) -> (bytes: [UInt8], version: Version) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXFailure.error("open", path: path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw POSIXFailure.error("stat", path: path) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw POSIXFailure.error("open", path: path, errno: EISDIR) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure.error("read", path: path)
            }
            if count == 0 { break }
            offset += count
        }
        bytes.removeSubrange(offset...)
        return (bytes, Version(info))
    }

    /// The first `count` bytes of the file (fewer when it is shorter), without reading the rest.
    public static func readPrefix(_ path: String, count: Int) throws(AccountError) -> (bytes: [UInt8], version: Version)
    {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXFailure.error("open", path: path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw POSIXFailure.error("stat", path: path) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw POSIXFailure.error("open", path: path, errno: EISDIR) }
        var buffer = [UInt8](repeating: 0, count: count)
        // A read may return fewer bytes than asked without being at the end of the file; only a
        // zero says the file is that short (a short header is damage, a short read is not).
        var filled = 0
        while filled < count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if read < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure.error("read", path: path)
            }
            if read == 0 { break }
            filled += read
        }
        return (Array(buffer.prefix(filled)), Version(info))
    }

    /// Replaces `path` with `bytes` so that a crash leaves either the old or the new file:
    /// write a temporary file beside it, fsync it, rename it over, fsync the folder.
    /// Call with the store's lock held. New files get mode 0600.
    /// - Throws: `storeIO` saying what the failure left: before the rename, the file as it was;
    ///   after it (the folder's fsync), the new file in place but perhaps not through a power cut.
    ///   A path that is a device, a pipe or a folder is refused before anything is written: the
    ///   rename would put a regular file where `/dev/null` was.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(AccountError) -> Version {
        let path = StorePath.followingLinks(path)
        do throws(AccountError) {
            try requireRegularFile(path)
        } catch {
            throw leftAsItWas(error, path)
        }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw leftAsItWas(POSIXFailure.error("create", path: temporary), path) }
        var info = stat()
        do throws(AccountError) {
            defer { close(fd) }
            try writeAll(fd, bytes, path: temporary)
            guard fsync(fd) == 0 else { throw POSIXFailure.error("fsync", path: temporary) }
            guard fstat(fd, &info) == 0 else { throw POSIXFailure.error("stat", path: temporary) }
        } catch {
            unlink(temporary)
            throw leftAsItWas(error, path)
        }
        guard rename(temporary, path) == 0 else {
            let failure = POSIXFailure.error("rename", path: temporary)
            unlink(temporary)
            throw leftAsItWas(failure, path)
        }
        do throws(AccountError) {
            try syncDirectory(of: path)
        } catch {
            throw error.addingOutcome(.replacedButNotSynced(path: path))
        }
        return Version(info)
    }

    private static func leftAsItWas(_ error: AccountError, _ path: String) -> AccountError {
        error.addingOutcome(.leftAsItWas(path: path))
    }

    /// fsyncs the folder that holds `path`, so a rename in it is durable.
    public static func syncDirectory(of path: String) throws(AccountError) {
        let folder = StorePath.directory(of: path)
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXFailure.error("open folder", path: folder) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw POSIXFailure.error("fsync folder", path: folder) }
    }

    /// Whether `path` is a regular file (following links): not a pipe such as bash's `<(…)`, a
    /// device or a folder, and not missing.
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Fails with a clear error when `path` exists but is not a regular file (a device such as
    /// `/dev/null`, a folder, a socket): no backend keeps its store in one.
    public static func requireRegularFile(_ path: String) throws(AccountError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let kind: String? =
            switch info.st_mode & S_IFMT {
            case S_IFREG: nil
            case S_IFDIR: "a folder"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFIFO: "a pipe"
            case S_IFSOCK: "a socket"
            default: "not a file"
            }
        if let kind { throw .storeIO(detail: "\(path) is not a regular file (\(kind))") }
    }

    /// Fails with a clear error when the folder that should hold `path` does not exist.
    public static func requireDirectory(of path: String) throws(AccountError) {
        let folder = StorePath.directory(of: path)
        var info = stat()
        guard stat(folder, &info) == 0 else { throw POSIXFailure.error("open folder", path: folder) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw POSIXFailure.error("open folder", path: folder, errno: ENOTDIR)
        }
    }

    /// Writes every byte of `bytes` to `fd`, resuming after a short or interrupted write.
    ///
    /// `path` only names the file in the error a failed write throws.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(AccountError) {
        var offset = 0
        while offset < bytes.count {
            let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure.error("write", path: path)
            }
            offset += count
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(AccountError) {
        // `withUnsafeBytes` rethrows untyped errors, so the typed error travels in a `Result`.
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(AccountError) in try writeAll(fd, buffer, path: path) }
        }.get()
    }
}
