import AccountBackendKit
import AccountCore
import DurableFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The file `export --output` writes, line by line. A regular file (or a new one) is written
/// into a private temporary file beside it and renamed into place on commit, so a failed
/// export leaves the old file. A device or pipe (`/dev/null`, `/dev/stdout`, a FIFO) is
/// written straight into: renaming over it would put a regular file, holding password hashes,
/// where the device was.
final class LineFile {
    private let path: String
    /// The temporary file renamed into place on commit; nil when writing straight into a
    /// device or pipe.
    private let temporary: String?
    /// Whether a file was at `path` before the export.
    private let existed: Bool
    /// Whether the rename into place was done.
    private var renamed = false
    private var buffer: [UInt8] = []
    private let descriptor: Int32

    init(path: String) throws {
        // Through a symbolic link (latest.jsonl naming a dated file), the file it names is
        // replaced and the link kept, as for a store.
        let path = StorePath.followingLinks(path)
        var folder = Glibc.stat()
        let directory = StorePath.directory(of: path)
        guard stat(directory, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR else {
            throw UsageProblem(
                english: "The folder \(directory) for \(path) does not exist; nothing was exported.",
                korean: "\(path)를 둘 폴더 \(directory)가 없습니다. 아무것도 내보내지 않았습니다.")
        }
        var existing = Glibc.stat()
        existed = stat(path, &existing) == 0
        let kind = existing.st_mode & S_IFMT
        if existed, kind == S_IFDIR {
            throw UsageProblem(
                english:
                    "\(path) is a folder: name the export file (say \(path)/accounts.jsonl); nothing was exported.",
                korean: "\(path)은(는) 폴더입니다. 내보낼 파일 이름을 정하세요 (예: \(path)/accounts.jsonl). 아무것도 내보내지 않았습니다.")
        }
        self.path = path
        if existed, kind != S_IFREG {
            temporary = nil
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXFailure.error("open", path: path) }
        } else {
            let temporary = path + ".partial"
            self.temporary = temporary
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw explaining(POSIXFailure.error("create", path: temporary)) }
        }
    }

    deinit {
        close(descriptor)
        if let temporary, !renamed { unlink(temporary) }
    }

    func write(_ line: String) throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { try flush() }
    }

    func commit() throws {
        try flush()
        guard let temporary else { return }
        guard fsync(descriptor) == 0 else { throw POSIXFailure.error("fsync", path: temporary) }
        guard rename(temporary, path) == 0 else { throw POSIXFailure.error("rename", path: temporary) }
        renamed = true
        do throws(AccountError) {
            try StoreFile.syncDirectory(of: path)
        } catch {
            throw error.addingOutcome(.replacedButNotSynced(path: path))
        }
    }

    /// `error`, from the export or from this file, with what it left at the path: the old file
    /// or no file, when the rename was not reached.
    func explaining(_ error: AccountError) -> AccountError {
        guard temporary != nil, !renamed else { return error }
        return error.addingOutcome(existed ? .leftAsItWas(path: path) : .nothingCreated(path: path))
    }

    private func flush() throws {
        let target = temporary ?? path
        try buffer.withUnsafeBytes { try StoreFile.writeAll(descriptor, $0, path: target) }
        buffer.removeAll(keepingCapacity: true)
    }
}
