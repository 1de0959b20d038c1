import AccountCore
import FileSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Standard input copied into a private temporary file (mode 0600), removed when this goes away:
/// for commands that must read their input twice.
final class StagedStandardInput {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/accounts-stdin-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw POSIXFailure.error("create", path: FileManager.default.temporaryDirectory.path) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw POSIXFailure.error("read", path: "standard input") }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + offset, count - offset) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw POSIXFailure.error("write", path: path) }
                offset += written
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
