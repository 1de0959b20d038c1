import AccountCore
import PostgresNIO
import Synchronization
// The one underscored module imported: PostgresNIO hands out the error of a pool that gave up
// connecting (`connectionCreationCircuitBreakerTripped`) only as this module's
// `ConnectionPoolError`, and that error is what tells a pool to replace (see below). Package.swift
// takes postgres-nio's patch releases only, for this import.
import _ConnectionPoolModule

/// The repository's connection pool: leases a connection within the connect timeout, says why
/// when it cannot (through a ``ConnectionProbe``), and puts a fresh pool in place of one that
/// is still backing off from a server that is back.
///
/// PostgresNIO's pool waits longer after each failed connection, up to a minute between tries,
/// and once it has failed for a minute with no connection open it rejects every call at once
/// until one of those tries succeeds. Left alone, a server back after an outage would be
/// refused until the pool's next try: 9 s later after a 45-second outage, up to a minute after
/// a long one. So when the probe connects while the pool has no connection to give, no call
/// holds one, and an earlier probe found the server refusing (or the pool rejects calls that
/// way), a fresh pool takes its place and the waiting calls run there. The old pool is retired
/// (``PoolGeneration``): a call already running on one of its connections finishes there, and
/// the pool is shut down after it.
final class PostgresPool: Sendable {
    private struct State {
        var current: PoolGeneration
        /// Replaced pools, shut down or shutting down; `close` waits for them.
        var retired: [PoolGeneration] = []
    }

    private let configuration: PostgresClient.Configuration
    private let options: PostgresOptions
    private let probe: ConnectionProbe
    private let probesWaitingCalls: Bool
    private let state: Mutex<State>
    /// Set when the probe finds the server refusing, cleared when a call gets a connection. While
    /// it is set, a pool with no connection in use that a waiting call could not lease from, on
    /// a server that accepts connections again, is waiting out its backoff.
    private let outage = Atomic<Bool>(false)

    /// Starts a pool for `connector`'s server; `probeFreshFor` is how long one probe's finding
    /// answers for all the calls that ask (tests pass zero, so each call asks the server).
    /// Tests that hand findings to ``note(_:connectionsInUse:generation:)`` themselves pass
    /// `probesWaitingCalls: false`, so that a call slow to lease on a busy machine adds none.
    init(
        _ connector: PostgresConnector, probeFreshFor: Duration = .seconds(1), probesWaitingCalls: Bool = true
    ) throws(AccountError) {
        configuration = try connector.clientConfiguration()
        options = connector.options
        probe = ConnectionProbe(freshFor: probeFreshFor) { await connector.probe() }
        self.probesWaitingCalls = probesWaitingCalls
        state = Mutex(State(current: PoolGeneration(configuration, number: 0)))
    }

    /// The pool to lease from.
    private var current: PoolGeneration { state.withLock { $0.current } }

    /// A call got a connection of a pool retired while it waited; it did not run there.
    private struct RetiredWhileWaiting: Error, CustomStringConvertible {
        var description: String { "the pool was replaced while this call waited for a connection; it did not run" }
    }

    /// Runs `body` on a pooled connection, within the connect timeout for getting one.
    /// - Throws: `storeIO` saying why no connection came (``PostgresDeadline``), and the
    ///   typed error of whatever `body` throws (``PostgresFailure``).
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        // Each rerun below is of a call that never ran on a connection, so nothing of it ran.
        // Three tries: a rejection by the pool that gave up, then at most one by a pool that a
        // racing call replaced (shut down, or retired as it gave this call a connection), are
        // all a call can meet before it reaches the fresh pool.
        var replaced = false
        var attempt = 0
        while true {
            attempt += 1
            let pool = current
            let leaseAndRun: @Sendable (@escaping @Sendable () -> Void) async throws -> T = { [self] leased in
                // What `body` throws comes back as a result, so that the call is counted as ended
                // only after its connection is back in the pool: a retired pool is shut down
                // when its last call ends, and PostgresNIO's shutdown is meant for connections
                // that are idle (one shut down while a connection was still leased could hang).
                let outcome: Result<T, any Error> = try await pool.client.withConnection { connection in
                    leased()
                    guard pool.startCall() else { throw RetiredWhileWaiting() }
                    if outage.load(ordering: .relaxed) { outage.store(false, ordering: .relaxed) }
                    do {
                        return .success(try await body(connection))
                    } catch {
                        return .failure(error)
                    }
                }
                pool.endCall()
                return try outcome.get()
            }
            do {
                return try await PostgresDeadline.run(
                    milliseconds: options.connectTimeoutMilliseconds, location: options.location,
                    watch: probesWaitingCalls ? Watch(pool: self, generation: pool.number) : nil, leaseAndRun)
            } catch let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped {
                let finding = await probe.check()
                note(finding, connectionsInUse: connectionsInUse, generation: pool.number)
                if finding == .reachable, !replaced, attempt < 3 {
                    replace(generation: pool.number)
                    replaced = true
                    continue
                }
                throw AccountError.storeIO(detail: "\(options.location): \(Self.gaveUp(finding))")
            } catch let error where Self.isShutDown(error) && pool.number != current.number && attempt < 3 {
                // The pool this call picked was replaced, and shut down, before it leased.
                continue
            } catch is RetiredWhileWaiting where attempt < 3 {
                continue
            } catch {
                throw PostgresFailure.map(error, location: options.location)
            }
        }
    }

    /// Keeps what a waiting call's probe found. A server that accepts connections again, after
    /// the probe found it refusing and while no call holds a connection, means the pool is
    /// waiting out a backoff that has grown with each failure (up to a minute): a fresh pool
    /// connects now, and the calls waiting in the old one run again on it.
    func note(_ finding: ConnectionProbe.Finding, connectionsInUse: Int, generation: Int) {
        switch finding {
        case .unreachable:
            outage.store(true, ordering: .relaxed)
        case .reachable:
            guard connectionsInUse == 0,
                outage.compareExchange(expected: true, desired: false, ordering: .relaxed).exchanged
            else { return }
            replace(generation: generation)
        }
    }

    /// Whether `error` says the pool was shut down (PostgresNIO reports it either way).
    private static func isShutDown(_ error: any Error) -> Bool {
        (error as? ConnectionPoolError) == .poolShutdown || (error as? PSQLError)?.code == .poolClosed
    }

    /// How many times a fresh pool has taken the place of one that gave up.
    var replacements: Int { current.number }

    /// Calls running on the current pool's connections: while any does, one will come free.
    private var connectionsInUse: Int { current.connectionsInUse }

    /// What a call waiting in the pool of `generation` asks and tells: the pool's probe, its
    /// count of connections in use, and ``note(_:connectionsInUse:generation:)``.
    private struct Watch: PoolWatch {
        let pool: PostgresPool
        let generation: Int

        func check() async -> ConnectionProbe.Finding { await pool.probe.check() }
        var connectionsInUse: Int { pool.connectionsInUse }
        func noted(_ finding: ConnectionProbe.Finding, connectionsInUse: Int) {
            pool.note(finding, connectionsInUse: connectionsInUse, generation: generation)
        }
    }

    /// Why a pool that stopped trying rejected a call.
    static func gaveUp(_ finding: ConnectionProbe.Finding) -> String {
        let rejected = "connecting has failed for over a minute, so the pool rejects calls until its next try"
        switch finding {
        case .unreachable(let reason, _): return "\(rejected); connecting fails: \(reason)"
        case .reachable: return "\(rejected), though the server accepts connections again"
        }
    }

    /// Starts a fresh pool in place of `generation`'s and retires that one, unless another
    /// call has replaced it already.
    private func replace(generation: Int) {
        let replaced = state.withLock { state -> PoolGeneration? in
            guard state.current.number == generation else { return nil }
            let old = state.current
            state.retired.append(old)
            state.current = PoolGeneration(configuration, number: generation + 1)
            return old
        }
        replaced?.retire()
    }

    /// Shuts the pool down (and any replaced one still shutting down), and waits until it has.
    func close() async {
        let pools = state.withLock { [$0.current] + $0.retired }
        for pool in pools { pool.runner.cancel() }
        for pool in pools { await pool.runner.value }
    }
}
