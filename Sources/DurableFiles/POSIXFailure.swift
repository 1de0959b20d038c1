public import AccountCore

#if canImport(Glibc)
    public import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a failed system call into the typed store error, keeping the system's reason as detail.
/// It says what failed, never what the failure left behind: only the caller knows whether
/// anything had changed by then (see `StoreFile.replace`).
public enum POSIXFailure {
    /// The `AccountError` for `errno` after `operation` on `path` failed.
    public static func error(_ operation: String, path: String, errno code: Int32 = errno) -> AccountError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return .storeIO(detail: "\(operation) \(path): disk full (\(reason))")
        case EFBIG:
            return .storeIO(detail: "\(operation) \(path): file size limit reached (\(reason))")
        case EACCES, EPERM, EROFS:
            return .storeIO(detail: "\(operation) \(path): not permitted (\(reason))")
        case ENOENT:
            return .storeIO(detail: "\(operation) \(path): no such file or directory")
        case ENOTDIR:
            return .storeIO(detail: "\(operation) \(path): a parent is not a directory")
        case EISDIR:
            return .storeIO(detail: "\(operation) \(path): is a directory, not a store file")
        default:
            return .storeIO(detail: "\(operation) \(path): \(reason)")
        }
    }
}
