import AccountBackendKit
package import AccountCore
package import DurableFiles
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The client's saved sessions: one per store, in a file of mode 0600 (its folder 0700 when the
/// CLI creates it). Only the store's SHA-256 of each token is kept server-side.
///
/// Each token names the store it belongs to, so a command on one store never reads, replaces or
/// removes the session of another: being signed in to several stores at once works. The file is
/// one JSON object, `{"format":"accounts-sessions","version":1,"sessions":[…]}`, replaced
/// atomically under a lock on its folder so that two commands on two stores keep both.
///
/// A file of the earlier format, one bare token line, is read as a session of no known store: a
/// store that recognises the token claims it (see `CommandContext.withSession`), and no store
/// removes it otherwise.
package struct SessionTokenFile {
    package let path: String
    /// Whether the folder may be created (it is the built-in default location).
    package let mayCreateFolder: Bool
    /// How long a change waits for another `accounts` process's change of the file: a process
    /// that holds the folder's lock and never lets go (hung, stopped) makes this one fail with
    /// `store_busy`, never wait without end.
    package var lockTimeoutMilliseconds = 10_000
    /// The waiter's clock (a test's moves only as it pauses).
    package var lockClock = LockWaitClock.system

    package init(path: String, mayCreateFolder: Bool) {
        self.path = path
        self.mayCreateFolder = mayCreateFolder
    }

    static let formatName = "accounts-sessions"
    static let formatVersion = 1

    private struct Contents: Codable {
        var format: String
        var version: Int
        var sessions: [SavedSession]
    }

    /// Every saved session; empty when there is no file.
    /// - Throws: `storeIO` when the path is a device, a pipe or a folder, whose reading could
    ///   block or say nothing; `configInvalid` naming `session.file` when the file is neither
    ///   format or a newer one (it is left as it is).
    func sessions() throws(AccountError) -> [SavedSession] {
        try StoreFile.requireRegularFile(path)
        guard try StoreFile.version(of: path) != nil else { return [] }
        let (bytes, _) = try StoreFile.read(path)
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return [] }
        if let token = Self.earlierFormatToken(text) { return [SavedSession(store: nil, token: token)] }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: Data(bytes)),
            contents.format == Self.formatName
        else {
            throw AccountError.configInvalid(
                key: "session.file", reason: "\(path) is not a session file; it was left as it is")
        }
        guard contents.version <= Self.formatVersion else {
            throw AccountError.configInvalid(
                key: "session.file",
                reason:
                    "\(path) has format version \(contents.version), newer than this accounts reads (\(Self.formatVersion))"
            )
        }
        return contents.sessions
    }

    /// Saves `token` as `store`'s session, replacing only that store's (and `claimed`, a token
    /// of the earlier format that the store recognised), atomically with mode 0600.
    package func save(_ token: String, for store: SessionStore, claiming claimed: String? = nil) throws(AccountError) {
        try prepareFolder()
        try update { sessions in
            sessions.removeAll { $0.store?.storeID == store.storeID || ($0.store == nil && $0.token == claimed) }
            sessions.append(SavedSession(store: store, token: token))
        }
    }

    /// Removes `store`'s saved session and `token` if it is one of no known store that the
    /// store recognised; the file goes when nothing is left in it. A missing file is fine, and
    /// a device or pipe is never unlinked.
    package func remove(for store: SessionStore, claiming claimed: String? = nil) throws(AccountError) {
        try StoreFile.requireRegularFile(path)
        guard try StoreFile.version(of: path) != nil else { return }
        try update { sessions in
            sessions.removeAll { $0.store?.storeID == store.storeID || ($0.store == nil && $0.token == claimed) }
        }
    }

    /// Creates the default folder (0700) when missing; a configured folder must exist, and the
    /// path must be free or a readable session file — checked before a sign-up or login, so a
    /// token is never made for a place it cannot be kept (`/dev/null` would be replaced by a
    /// file, a file of notes would be refused only after the account was made).
    func prepareFolder() throws(AccountError) {
        let folder = StorePath.directory(of: path)
        if mayCreateFolder { try Folders.create(folder) }
        try StoreFile.requireDirectory(of: path)
        _ = try sessions()
    }

    /// Reads, changes and writes back the sessions holding an exclusive lock on the file's
    /// folder: the file itself is replaced by a rename, so a lock on it would be lost. An empty
    /// list removes the file.
    private func update(_ change: (inout [SavedSession]) -> Void) throws(AccountError) {
        let folder = StorePath.directory(of: path)
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXFailure.error("open", path: folder) }
        defer { close(fd) }
        try FileLock.lock(fd, path: folder, timeoutMilliseconds: lockTimeoutMilliseconds, clock: lockClock)
        var sessions = try sessions()
        change(&sessions)
        if sessions.isEmpty {
            if unlink(path) != 0, errno != ENOENT { throw POSIXFailure.error("remove session file", path: path) }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let contents = Contents(format: Self.formatName, version: Self.formatVersion, sessions: sessions)
        guard let data = try? encoder.encode(contents) else {
            throw AccountError.storeIO(detail: "\(path): the sessions could not be encoded")
        }
        _ = try StoreFile.replace(path, with: Array(data) + [UInt8(ascii: "\n")])
    }

    /// The token of a file saved before sessions named their store: one line of printable
    /// ASCII without spaces (tokens are hex). Anything else is not that format.
    private static func earlierFormatToken(_ text: String) -> String? {
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), text.first != "{" else { return nil }
        return text
    }
}
