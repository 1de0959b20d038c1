#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a store's path leads, written once for the kit and the file helpers: a store reached
/// through a symbolic link is opened, locked and replaced where the link points
/// (``BackendConfiguration/locationFollowingLinks``).
public enum StorePath {
    /// `path` with a symbolic link in its last component followed to the file it names, even
    /// one not created yet. A store or session file reached through a link is replaced where
    /// the link points: renaming over the link would leave the file it named behind, out of
    /// date, and fork the store in two.
    public static func followingLinks(_ path: String) -> String {
        var current = path
        // Linux follows at most 40 links in a path (ELOOP past that); so does this.
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            let count = readlink(current, &buffer, buffer.count)
            guard count > 0, count < buffer.count else { return current }
            let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
        }
        return current
    }

    /// The folder part of `path` (`.` when there is none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
