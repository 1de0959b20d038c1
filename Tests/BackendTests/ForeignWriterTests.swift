import AccountTestSupport
import BackendTestSupport
import DurableFiles
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The lock holder that other tests use to make a store busy must hold the lock in this process
/// only, and must let it go wherever it is released. Tests run side by side, and any child
/// started meanwhile (by `Process`, `posix_spawn` or a shell) gets every descriptor not marked
/// close-on-exec, unless its spawner closes them as `PseudoTerminal` now does: a `flock` belongs
/// to the open file, so a child that inherited the holder's descriptor kept the store busy after
/// `release()`, for as long as it ran.
@Suite("Foreign writer")
struct ForeignWriterTests {
    @Test("a child started while the JSON store's lock is held does not inherit the lock's descriptor")
    func lockNotPassedOn() async throws {
        let scratch = try ScratchFolder("foreign-writer")
        let store = scratch.path + "/accounts.json"
        let holder = try ForeignWriter(backend: "json", storePath: store)
        defer { holder.release() }
        let descriptors = try await PseudoTerminal.descriptorsOfNewChild()
        #expect(!descriptors.contains(".lock"), "the child holds the lock's file open: \(descriptors)")
    }

    @Test("an LMDB holder that cannot take the lock says which call failed and LMDB's reason")
    func lmdbFailureNamesTheCall() throws {
        let scratch = try ScratchFolder("foreign-writer-lmdb-missing")
        let store = scratch.path + "/no such folder/accounts.lmdb"
        #expect {
            _ = try ForeignWriter(backend: "lmdb", storePath: store)
        } throws: { error in
            "\(error)" == "could not begin a write transaction on \(store): mdb_env_open failed with \(ENOENT) "
                + "(\(String(cString: strerror(ENOENT))))"
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/no such folder"), "nothing made on the way")
    }

    /// An async test resumes on any free thread, so it may release the holder on another thread
    /// than the one that took LMDB's writer mutex. Aborted there, the unlock failed and the lock
    /// stayed held; worse, the taking thread's robust-mutex list still named the mutex after
    /// the lock file was unmapped, and that thread's next LMDB lock crashed the test run
    /// (SIGSEGV in `__pthread_mutex_lock_full`, at the writer mutex's offset in the lock file).
    @Test("an LMDB holder released on another thread than it took the lock on frees the lock")
    func lmdbReleasedElsewhere() async throws {
        let cli = try CLIRunner("foreign-writer-lmdb")
        let store = cli.root + "/accounts.lmdb"
        func signUp(_ email: String) -> [String] {
            // timeout(1) only keeps a hang from holding CI: 60 s was too short once, in CI, where
            // these runs start beside the whole suite's processes on 2 cores.
            [
                "300", CLIRunner.executable, "signup", "--backend", "lmdb", "--store", store, "--email", email,
                "--nickname", "이순신", "--password-stdin", "--json",
            ]
        }
        let password = "Tangerine-Kayak-42"
        let created = try await cli.run(
            signUp("leesoon7@example.com"), stdin: [password, password], executable: "/usr/bin/timeout")
        try #require(created.status == 0, "\(created.stdout) \(created.stderr)")

        // Handed to one other thread once this task is done with it, never shared.
        nonisolated(unsafe) let holder = try ForeignWriter(backend: "lmdb", storePath: store)
        let lockFile = try LockFileView(store + "-lock")
        #expect(try lockFile.writerLockWord() != 0, "the holder holds LMDB's writer mutex")
        // A writer that queues behind the holder. It must be waiting before the release: one
        // that opened the store after it would find the lock file unused and reset its mutexes,
        // hiding a lock that was never let go.
        let waiter = Task {
            let other = try CLIRunner("foreign-writer-lmdb-waiter")
            return try await other.run(
                signUp("newcomer7@example.com"), stdin: [password, password], executable: "/usr/bin/timeout")
        }
        for _ in 0..<30_000 where try lockFile.writerLockWord() & LockFileView.futexWaiters == 0 {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(try lockFile.writerLockWord() & LockFileView.futexWaiters != 0, "the second writer waits for the lock")
        await SerialIOQueue(label: "release elsewhere").run { holder.release() }
        let after = try await waiter.value
        #expect(
            after.status == 0, "the waiting writer got the lock once it was released: \(after.stdout) \(after.stderr)")
    }
}

/// LMDB's lock file, read through one descriptor kept open for as long as the view lives: the
/// store's processes register in the file with `fcntl` locks, which belong to the process and
/// all go the first time any of its descriptors of that file is closed. Reading it through a
/// fresh descriptor each time dropped the holder's registration, so the next process to open
/// the store reset every mutex in it.
private final class LockFileView {
    /// glibc's flag, in a mutex's futex word, that a thread sleeps waiting for it.
    static let futexWaiters: UInt32 = 0x8000_0000

    private let descriptor: Int32

    init(_ path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    /// The futex word of the writer mutex: liblmdb's lock file starts with a 64-byte block
    /// holding the readers' mutex, and the writer mutex follows, its lock word first. 0 when
    /// free; else the owner's thread id, with `futexWaiters` set once another thread sleeps on
    /// it.
    func writerLockWord() throws -> UInt32 {
        var word: UInt32 = 0
        guard pread(descriptor, &word, 4, 64) == 4 else { throw POSIXError(.EIO) }
        return word
    }
}
