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
/// LMDB's mutex belongs to the thread that took it, so its transaction lives on a thread of
/// its own (`LMDBWriterThread`): the holder may be released from any thread, as an async test
/// does.
package final class ForeignWriter {
    private var sqlite: OpaquePointer?
    private var descriptor: Int32 = -1
    private var lmdb: LMDBWriterThread?

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
            lmdb = try LMDBWriterThread(storePath: storePath)
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
        lmdb?.release()
        lmdb = nil
    }

    deinit { release() }

    package struct HolderError: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
