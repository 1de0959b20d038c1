public import AccountCore
import Foundation

/// The folder of a file that holds a secret (the server's key, the signing keys).
public enum PrivateFolder {
    /// Makes the folder that holds `path`, and its parents, mode 0700, when there is none;
    /// `failure` makes the error from the reason when it cannot be made.
    public static func make(holding path: String, failure: (String) -> AccountError) throws(AccountError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw failure("cannot make the folder \(folder): \(error.localizedDescription)")
        }
    }
}
