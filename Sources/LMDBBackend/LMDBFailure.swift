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
        case MDB_CORRUPTED, MDB_PAGE_NOTFOUND, MDB_INVALID, MDB_VERSION_MISMATCH, MDB_INCOMPATIBLE:
            return .storeCorrupted(detail: detail)
        case MDB_PANIC:
            // A write of a meta page failed in this process (an I/O error, a full disk), and
            // LMDB refuses every later transaction of this environment. The file still holds
            // the last committed transaction under its other meta page: the failure is this
            // process's I/O, not damage, and the store opens again in a new process.
            return .storeIO(
                detail:
                    "\(path): \(operation): an earlier write failed and LMDB stopped this process's use of the store; the last committed transaction is kept (\(message), LMDB code \(code))"
            )
        case MDB_READERS_FULL:
            return .storeBusy(detail: detail)
        case ENOSPC, EFBIG, EDQUOT:
            return .storeIO(detail: "\(path): disk full during \(operation); the transaction was aborted (\(message))")
        default:
            return .storeIO(detail: detail)
        }
    }
}
