/// A way to make a store unreachable in the middle of an operation, for the check that every
/// write fails closed: it reports a typed error and leaves the store as it was.
///
/// Only the backend's fixtures know how their stores can be cut off: PostgreSQL's hold the rows
/// the operation needs, wait until its transaction is waiting for them, and end its connection
/// from the server's side, as a network failure or a restarted server would. A backend whose
/// fixtures give no way leaves ``StoreFixtures/cutOff`` `nil`, and the check is skipped, saying
/// so. (The embedded standard backends are cut off from outside, by a harness that makes every
/// file system call fail from a chosen point on: `scripts/fault-sweep.sh --unreachable`.)
public struct StoreCutOff: Sendable {
    /// Runs `operation` against the store at `path` (a scratch path, as the checks open stores
    /// at) and cuts it off from the store while it is in the middle of a write; afterwards the
    /// store is reachable again. Returns how `operation` ended: ``StillRunning`` as its failure
    /// when it had not ended a while after the cut (a call that hangs never fails closed).
    /// - Throws: when the store cannot be cut off: `operation` ended without writing, or the
    ///   fixtures' own way to the store failed.
    public let run:
        @Sendable (_ path: String, _ operation: @escaping @Sendable () async throws -> Void) async throws -> Result<
            Void, any Error
        >

    /// Describes how a backend's stores are cut off.
    public init(
        run:
            @escaping @Sendable (_ path: String, _ operation: @escaping @Sendable () async throws -> Void) async throws
            -> Result<Void, any Error>
    ) {
        self.run = run
    }

    /// The failure ``run`` gives for an operation that had not ended `after` its store was cut off.
    public struct StillRunning: Error, Sendable, CustomStringConvertible {
        /// How long the fixtures waited after the cut.
        public let after: Duration

        /// Describes an operation still running `after` the cut.
        public init(after: Duration) { self.after = after }

        public var description: String { "still running \(after) after the store was cut off" }
    }
}
