import PostgresNIO
import Synchronization

/// One PostgresNIO pool of a ``PostgresPool``, its run task, and how many calls are running on
/// its connections.
///
/// Cancelling the run task shuts the pool down by force, closing even the connections calls
/// are using. So a pool being replaced is retired instead: from then on no call starts on it
/// (one that gets a connection runs again on the fresh pool, as nothing of it ran), and the
/// pool is shut down once the last call already running on it has ended and given its
/// connection back.
final class PoolGeneration: Sendable {
    let client: PostgresClient
    let runner: Task<Void, Never>
    /// Which pool this is: 0 for the first, one more for each replacement.
    let number: Int

    /// The calls running on a connection, with `retiring` set once the pool is retired: one
    /// word, so that starting a call and retiring the pool cannot pass each other.
    private let leases = Atomic<Int>(0)
    private static let retiring = 1 << 62

    init(_ configuration: PostgresClient.Configuration, number: Int) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: PostgresConnector.logger)
        self.client = client
        runner = Task { await client.run() }
        self.number = number
    }

    /// Calls running on this pool's connections now.
    var connectionsInUse: Int { leases.load(ordering: .relaxed) & ~Self.retiring }

    /// Counts a call that got a connection, unless the pool is retired: then false, and the
    /// call must not run on it.
    func startCall() -> Bool {
        var seen = leases.load(ordering: .relaxed)
        while seen & Self.retiring == 0 {
            let (exchanged, original) = leases.compareExchange(
                expected: seen, desired: seen + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            seen = original
        }
        return false
    }

    /// Ends a call counted by ``startCall()``, once its connection is back in the pool; the last
    /// one on a retired pool shuts it down, so that the shutdown finds every connection idle.
    func endCall() {
        if leases.subtract(1, ordering: .acquiringAndReleasing).newValue == Self.retiring { runner.cancel() }
    }

    /// Lets no call start on this pool any more, and shuts it down now if none is running.
    func retire() {
        if leases.bitwiseOr(Self.retiring, ordering: .acquiringAndReleasing).oldValue == 0 { runner.cancel() }
    }
}
