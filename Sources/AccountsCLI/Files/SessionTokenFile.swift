import AccountBackendKit
import AccountCore
import FileSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The client's saved session token: one line in a file of mode 0600 (its folder 0700 when the
/// CLI creates it). Only the store's SHA-256 of it is kept server-side.
struct SessionTokenFile {
    let path: String
    /// Whether the folder may be created (it is the built-in default location).
    let mayCreateFolder: Bool

    /// The saved token, or `nil` when there is none.
    /// - Throws: `storeIO` when the path is a device, a pipe or a folder, whose reading could
    ///   block or say nothing.
    func read() throws(AccountError) -> String? {
        try StoreFile.requireRegularFile(path)
        guard try StoreFile.version(of: path) != nil else { return nil }
        let (bytes, _) = try StoreFile.read(path)
        let token = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        return token.isEmpty ? nil : token
    }

    /// Saves the token atomically with mode 0600.
    func save(_ token: String) throws(AccountError) {
        try prepareFolder()
        _ = try StoreFile.replace(path, with: Array((token + "\n").utf8))
    }

    /// Removes the saved token; a missing file is fine, and a device or pipe is never unlinked.
    func remove() throws(AccountError) {
        try StoreFile.requireRegularFile(path)
        if unlink(path) != 0, errno != ENOENT { throw POSIXFailure.error("remove session file", path: path) }
    }

    /// Creates the default folder (0700) when missing; a configured folder must exist, and the
    /// path must be free or a regular file — checked before a sign-up or login, so a token is
    /// never made for a place it cannot be kept (`/dev/null` would be replaced by a file).
    func prepareFolder() throws(AccountError) {
        let folder = StorePath.directory(of: path)
        if mayCreateFolder { try Folders.create(folder) }
        try StoreFile.requireDirectory(of: path)
        try StoreFile.requireRegularFile(path)
    }
}
