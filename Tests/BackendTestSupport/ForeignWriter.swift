import CLMDB
import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Holds an embedded store's write lock the way another process's write would, until
/// released: SQLite's `BEGIN IMMEDIATE`, the JSON store's `flock` on `<store>.lock`, LMDB's
/// writer mutex (a write transaction on an environment of its own). Locks of SQLite and the JSON
/// store are per process, so a test holding one blocks the `accounts` it starts; LMDB's writer
/// mutex is shared by every process, and a process may open an environment only once, so for
/// LMDB only other processes may be blocked (never the test's own repository).
///
/// LMDB's mutex belongs to the thread that took it: create and release the holder on one
/// thread (a synchronous test).
package final class ForeignWriter {
    private var sqlite: OpaquePointer?
    private var descriptor: Int32 = -1
    private var environment: OpaquePointer?
    private var transaction: OpaquePointer?

    package init(backend: String, storePath: String) throws {
        switch backend {
        case "sqlite":
            guard sqlite3_open_v2(storePath, &sqlite, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
                sqlite3_exec(sqlite, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK
            else { throw HolderError("could not lock \(storePath)") }
        case "json":
            // Close-on-exec: a child that another test starts meanwhile must not take the lock
            // along (a `flock` belongs to the open file, which a child would share).
            descriptor = open(storePath + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
                throw HolderError("could not lock \(storePath).lock")
            }
        case "lmdb":
            guard mdb_env_create(&environment) == MDB_SUCCESS, mdb_env_set_maxdbs(environment, 16) == MDB_SUCCESS,
                mdb_env_open(environment, storePath, UInt32(MDB_NOSUBDIR | MDB_NOTLS), 0o600) == MDB_SUCCESS,
                mdb_txn_begin(environment, nil, 0, &transaction) == MDB_SUCCESS
            else {
                release()
                throw HolderError("could not begin a write transaction on \(storePath)")
            }
        default:
            throw HolderError("no lock holder for backend \(backend)")
        }
    }

    package func release() {
        if let sqlite {
            sqlite3_exec(sqlite, "ROLLBACK", nil, nil, nil)
            sqlite3_close_v2(sqlite)
        }
        sqlite = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let transaction { mdb_txn_abort(transaction) }
        transaction = nil
        if let environment { mdb_env_close(environment) }
        environment = nil
    }

    deinit { release() }

    package struct HolderError: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
