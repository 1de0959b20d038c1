import CLMDB
import Foundation
import Synchronization

/// An LMDB write transaction held on a thread of its own, from `init` until `release()`.
///
/// LMDB's writer mutex is a robust, process-shared pthread mutex in the lock file, and it
/// belongs to the thread that took it. Aborted on any other thread, its unlock fails (EPERM,
/// which LMDB ignores): the lock stays held, and the taking thread's robust-mutex list keeps
/// pointing into the lock file after `mdb_env_close` unmaps it, so that thread's next robust
/// lock (any LMDB store's) writes to unmapped memory and the process dies with SIGSEGV. An
/// async test resumes on whatever pool thread is free, so the transaction lives on this
/// dedicated thread, which begins it, waits, and ends it.
final class LMDBWriterThread: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let isReleased = Mutex(false)

    /// Begins the write transaction on `storePath` (an LMDB store without a subdirectory),
    /// returning once it holds the writer lock; throws when it could not.
    init(storePath: String) throws {
        let began = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        let thread = Thread { [released, ended] in
            var environment: OpaquePointer?
            var transaction: OpaquePointer?
            // The first call that fails, and LMDB's status for it.
            var failed: (call: String, status: Int32)?
            for (call, step) in [
                ("mdb_env_create", { mdb_env_create(&environment) }),
                ("mdb_env_set_maxdbs", { mdb_env_set_maxdbs(environment, 16) }),
                ("mdb_env_open", { mdb_env_open(environment, storePath, UInt32(MDB_NOSUBDIR | MDB_NOTLS), 0o600) }),
                ("mdb_txn_begin", { mdb_txn_begin(environment, nil, 0, &transaction) }),
            ] as [(String, () -> Int32)] {
                let status = step()
                if status != MDB_SUCCESS {
                    failed = (call, status)
                    break
                }
            }
            if let failed {
                let reason = String(cString: mdb_strerror(failed.status))
                failure.withLock {
                    $0 =
                        "could not begin a write transaction on \(storePath): \(failed.call) failed with \(failed.status) (\(reason))"
                }
                began.signal()
            } else {
                began.signal()
                released.wait()
            }
            if let transaction { mdb_txn_abort(transaction) }
            if let environment { mdb_env_close(environment) }
            ended.signal()
        }
        thread.name = "LMDB writer lock"
        thread.start()
        began.wait()
        if let message = failure.withLock({ $0 }) {
            ended.wait()
            isReleased.withLock { $0 = true }
            throw ForeignWriter.HolderError(message)
        }
    }

    /// Ends the transaction on its thread and closes the environment; returns once both are done.
    /// Later calls do nothing.
    func release() {
        let first = isReleased.withLock { (done) -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        released.signal()
        ended.wait()
    }

    deinit { release() }
}
