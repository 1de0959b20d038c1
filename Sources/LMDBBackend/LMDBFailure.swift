import AccountCore
import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// Maps LMDB result codes to the typed errors, keeping LMDB's message as detail.
enum LMDBFailure {
    static func error(_ code: Int32, _ operation: String, path: String) -> AccountError {
        let message = String(cString: mdb_strerror(code))
        let detail: ErrorDetail = "\(path): \(operation): \(message) (LMDB code \(code))"
        switch code {
        case MDB_CORRUPTED, MDB_PAGE_NOTFOUND, MDB_PANIC, MDB_INVALID, MDB_VERSION_MISMATCH, MDB_INCOMPATIBLE:
            return .storeCorrupted(detail: detail)
        case MDB_READERS_FULL:
            return .storeBusy(detail: detail)
        case ENOSPC, EFBIG, EDQUOT:
            return .storeIO(detail: "\(path): disk full during \(operation); the transaction was aborted (\(message))")
        default:
            return .storeIO(detail: detail)
        }
    }
}
