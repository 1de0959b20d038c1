import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch folder removed when the test ends.
///
/// A test process that is killed (Ctrl-C, a CI timeout, SIGKILL) runs no `deinit`, and its
/// folders, with the stores and CLI sandboxes in them, would stay in the temporary directory
/// for good. So each folder's name carries its test process's id, and the first scratch folder
/// a test process makes removes those of processes that no longer exist. Folders of a running
/// process (another `swift test` beside this one) are never touched.
package struct ScratchFolder: ~Copyable {
    package let path: String

    package init(_ label: String) throws {
        _ = Self.sweptOnce
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/" + Self.prefix + "\(label)-p\(getpid())-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    static let prefix = "accounts-test-"

    private static let sweptOnce: Void = {
        sweepAbandoned(in: FileManager.default.temporaryDirectory.path)
    }()

    /// Removes the scratch folders in `folder` whose test process has ended; returns their names.
    @discardableResult
    package static func sweepAbandoned(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let abandoned = names.filter { name in
            guard name.hasPrefix(prefix), let pid = owner(of: name) else { return false }
            return kill(pid, 0) == -1 && errno == ESRCH
        }
        for name in abandoned { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
        return abandoned
    }

    /// The process id in `accounts-test-<label>-p<pid>-<UUID>`; nil for any other name.
    static func owner(of name: String) -> pid_t? {
        let parts = name.split(separator: "-")
        // A UUID is five parts; the one before it is "p" and the process id.
        guard parts.count > 6, UUID(uuidString: parts.suffix(5).joined(separator: "-")) != nil else { return nil }
        let tag = parts[parts.count - 6]
        guard tag.first == "p", let pid = pid_t(tag.dropFirst()), pid > 0 else { return nil }
        return pid
    }
}
