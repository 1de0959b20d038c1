public import AccountCore
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// Reads the server password from a file that only its owner can read.
public enum PostgresPasswordFile {
    /// The file's first line (a trailing newline is not part of the password).
    /// - Throws: `configInvalid` when the file is missing, empty, or readable by group or others
    ///   (like ssh and libpq, a secret others can read is refused rather than used).
    public static func read(_ path: String, key: String = "postgres.password_file") throws(AccountError) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .configInvalid(key: key, reason: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if info.st_mode & 0o077 != 0 {
            throw .configInvalid(
                key: key,
                reason: "\(path) is readable by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw .configInvalid(key: key, reason: "cannot read \(path) as UTF-8 text")
        }
        let password = String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingSuffix("\r")
        guard !password.isEmpty else { throw .configInvalid(key: key, reason: "\(path) holds no password") }
        return password
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
