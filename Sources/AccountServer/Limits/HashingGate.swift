public import AccountCore
import Dispatch
import Foundation
import Synchronization

/// Bounds the password hashes of the server (Argon2id, 19 MiB and tens of milliseconds each):
/// at most `concurrency` at once, at most `queueLimit` waiting, and any further one refused at
/// once with ``ServerBusy`` instead of growing memory. A slot is held while a hash computes,
/// not while the request reads or writes the store around it (``AccountAPI`` hands the gate to
/// its `AccountService` as its `PasswordHashingScheduler`). The requests that hash run on
/// `concurrency` threads of their own (``offEventLoops(_:)``), so reads never wait here, and
/// the threads that serve them are never blocked by a hash or by a store's flush.
public final class HashingGate: PasswordHashingScheduler {
    private struct State {
        /// Requests inside ``offEventLoops(_:)``.
        var admitted = 0
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var rejected = 0
    }

    /// Computations at once.
    public let concurrency: Int
    /// Requests that may wait for a slot.
    public let queueLimit: Int
    private let state = Mutex(State())
    private let executor: HashingThreads

    /// - Parameters:
    ///   - concurrency: computations at once (0: one per core).
    ///   - queueLimit: requests that may wait for a slot.
    public init(concurrency: Int, queueLimit: Int) {
        self.concurrency = concurrency > 0 ? concurrency : max(1, ProcessInfo.processInfo.activeProcessorCount)
        self.queueLimit = queueLimit
        executor = HashingThreads(count: self.concurrency)
    }

    /// Requests the gate holds that are not hashing now: waiting for a slot, for one of its
    /// threads, or at the store calls around their hash.
    public var queueDepth: Int { state.withLock { max($0.admitted - $0.running, $0.waiting.count) } }
    /// Requests holding a slot now.
    public var inProgress: Int { state.withLock { $0.running } }
    /// Requests refused because the queue was full, since start.
    public var rejections: Int { state.withLock { $0.rejected } }

    /// Runs `work` (a hash) once a slot is free, on the hashing threads.
    /// - Throws: ``ServerBusy`` when every slot is taken and the queue is full; else what
    ///   `work` throws.
    public func run<T: Sendable>(_ work: @Sendable () throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await withTaskExecutorPreference(executor) { try work() }
    }

    /// Runs `body` (a request that will hash) on the hashing threads, without taking a slot:
    /// its store calls, some of which wait for a flush to disk, stay off the threads that serve
    /// every other request. At most `concurrency + queueLimit` requests are inside at once; one
    /// more is refused here, at once, before it waits for anything (the hashing threads may all
    /// be busy hashing, so a request left to queue for them would never reach the slots' own
    /// check).
    /// - Throws: ``ServerBusy`` when the gate is full; else what `body` throws.
    public func offEventLoops<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try admit()
        defer { state.withLock { $0.admitted -= 1 } }
        return try await withTaskExecutorPreference(executor) { try await body() }
    }

    private func admit() throws(ServerBusy) {
        let admitted = state.withLock { state -> Bool in
            guard state.admitted < concurrency + queueLimit else {
                state.rejected += 1
                return false
            }
            state.admitted += 1
            return true
        }
        if !admitted { throw ServerBusy(retryAfterSeconds: 1) }
    }

    private func acquire() async throws(ServerBusy) {
        enum Decision { case run, wait, refuse }
        let decision = state.withLock { state -> Decision in
            if state.running < concurrency {
                state.running += 1
                return .run
            }
            if state.waiting.count < queueLimit { return .wait }
            state.rejected += 1
            return .refuse
        }
        switch decision {
        case .run: return
        case .refuse: throw ServerBusy(retryAfterSeconds: 1)
        case .wait:
            await withCheckedContinuation { continuation in
                let runNow = state.withLock { state -> Bool in
                    // A slot may have been freed since the decision above.
                    if state.running < concurrency {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if runNow { continuation.resume() }
            }
        }
    }

    private func release() {
        // A waiter takes the slot over, so `running` stays as it is.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// The hashing requests' threads: `count` threads of their own, stopped when the gate goes
/// away. Not a Dispatch queue: on Linux one shares the threads of Swift's global executor (one
/// per core), so hashes computing on all of them held up every other task of the process —
/// including the requests the gate should have refused at once.
final class HashingThreads: TaskExecutor {
    private let work = Work()
    private let count: Int

    init(count: Int) {
        self.count = count
        for index in 0..<count {
            let thread = Thread { [work] in
                // Named by the thread itself, through the kernel's own file for it (what
                // prctl(PR_SET_NAME) sets; Swift can call neither that variadic function nor
                // glibc's pthread_setname_np, which it does not import). Not through Foundation's
                // `Thread.name`: it reaches the kernel only once `start()` has stored the new
                // thread's handle, which a thread that runs at once beats, and then it is dropped
                // (in about one gate in 25 a thread kept the name of the Dispatch thread that made
                // it). Where there is no such file (not Linux), the threads go unnamed: the name is
                // for operators, nothing depends on it.
                if let comm = FileHandle(forWritingAtPath: "/proc/thread-self/comm") {
                    try? comm.write(contentsOf: Data("hashing-\(index)".utf8))
                    try? comm.close()
                }
                work.run()
            }
            thread.start()
        }
    }

    deinit {
        // Nothing can be queued any more (a queued job's task holds the gate): each thread
        // takes one empty turn and ends.
        for _ in 0..<count { work.available.signal() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        work.jobs.withLock { $0.append((job, executor)) }
        work.available.signal()
    }

    /// What the threads share: the jobs in order, and one signal per job (or per thread to end).
    private final class Work: Sendable {
        let jobs = Mutex<[(job: UnownedJob, executor: UnownedTaskExecutor)]>([])
        let available = DispatchSemaphore(value: 0)

        func run() {
            while true {
                available.wait()
                let next = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                guard let next else { return }
                next.job.runSynchronously(on: next.executor)
            }
        }
    }
}

/// Every hashing slot is taken and the queue is full: 503 with `Retry-After`.
public struct ServerBusy: Error, Sendable {
    /// When to try again.
    public let retryAfterSeconds: Int64
}
