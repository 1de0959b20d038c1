import AccountCore
import DurableFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Creating the CLI's default folders, private to the user (0700).
enum Folders {
    /// Creates `path` and any missing parents with mode 0700.
    static func create(_ path: String) throws(AccountError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0, errno != EEXIST {
                throw POSIXFailure.error("create folder", path: built)
            }
        }
    }
}
