public import AccountCore
public import AccountCrypto
import DurableFiles
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The file that holds the server's secret key (`HMACKey`): 64 hex digits and a newline.
/// Servers that share a store should share this file, so that a device token or a form one
/// server signed is good on every other; a server that restarts keeps its key.
public enum ServerSecretFile {
    /// The key in the file at `path`, made first (32 random bytes, mode 0600, its folder 0700
    /// when new) when there is no file there. Two servers that start at once make one key:
    /// the file appears whole or not at all, and the second reads the first's.
    /// - Throws: `configInvalid` naming `server.secret_file` when the file cannot be read or
    ///   made, or holds anything but a key. Such a file is left as it is.
    public static func key(at path: String, settingName: String = "server.secret_file") throws(AccountError)
        -> HMACKey
    {
        func invalid(_ reason: String) -> AccountError { .configInvalid(key: settingName, reason: reason) }
        if !FileManager.default.fileExists(atPath: path) {
            try create(at: path, invalid: invalid)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw invalid("cannot read \(path)")
        }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        guard Hex.isLowercaseHex(text, byteCount: HMACKey.byteCount), let bytes = Hex.decode(text),
            let key = HMACKey(bytes: bytes)
        else {
            throw invalid(
                "\(path) does not hold a key (64 lowercase hex digits); it was left as it is: "
                    + "move it away to have a new key made, or write one with "
                    + "`od -An -tx1 -N32 /dev/urandom | tr -d ' \\n'`")
        }
        return key
    }

    /// Writes a new key to a file of its own, then links it to `path`: the link fails when
    /// another server made the file first, whose key then stands.
    private static func create(at path: String, invalid: (String) -> AccountError) throws(AccountError) {
        try PrivateFolder.make(holding: path, failure: invalid)
        let temporary = path + ".new-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw invalid("cannot make \(path): \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        let line = Array((Hex.encode(SodiumRandomSource().bytes(HMACKey.byteCount)) + "\n").utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == line.count, synced else {
            throw invalid("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        if link(temporary, path) != 0, errno != EEXIST {
            throw invalid("cannot make \(path): \(String(cString: strerror(errno)))")
        }
    }
}
