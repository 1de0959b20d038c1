import AccountCore
import AccountOperations
import DurableFiles
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An input that can be read only once — standard input, a pipe such as bash's
/// `<(zcat all.jsonl.gz)`, a device — copied into a private temporary file (mode 0600), removed
/// when this goes away: for commands that must read their input twice.
final class StagedInput {
    let path: String
    /// What messages call the input: standard input in the message's language, or the pipe's path.
    let name: String

    /// `input` staged when it must be: `-` (standard input, which messages call
    /// `standardInputName`) or anything that is not a regular file or a folder; nil when it can
    /// be read as it is.
    static func ifNeeded(_ input: String, standardInputName: String) throws -> StagedInput? {
        if input == "-" { return try StagedInput(STDIN_FILENO, named: standardInputName) }
        var info = stat()
        guard stat(input, &info) == 0, ![S_IFREG, S_IFDIR].contains(info.st_mode & S_IFMT) else { return nil }
        let fd = open(input, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ExportFileReader.cannotOpen(input).addingOutcome(.nothingWritten)
        }
        defer { close(fd) }
        return try StagedInput(fd, named: input)
    }

    /// Copies what `source` gives until its end.
    private init(_ source: Int32, named name: String) throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/accounts-input-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw POSIXFailure.error("create", path: FileManager.default.temporaryDirectory.path) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.name = name
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(source, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw POSIXFailure.error("read", path: name) }
            if count == 0 { break }
            let target = path
            try buffer.withUnsafeBytes {
                try StoreFile.writeAll(fd, UnsafeRawBufferPointer(rebasing: $0.prefix(count)), path: target)
            }
        }
    }

    deinit { unlink(path) }
}

/// A private temporary folder, removed with everything in it when this goes away.
final class StagedFolder {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/accounts-scratch-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw POSIXFailure.error("create", path: FileManager.default.temporaryDirectory.path)
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
