/// Whom a call still waiting for a pooled connection asks why it has none, and tells what it
/// found: the pool the call leases from (``PostgresDeadline``).
protocol PoolWatch: Sendable {
    /// Why the pool has no connection to give: a ``ConnectionProbe``'s finding.
    func check() async -> ConnectionProbe.Finding
    /// How many calls hold a connection now; while any does, one will come free.
    var connectionsInUse: Int { get }
    /// Learns a finding once the waiting call has recorded it, with the connections then in use.
    func noted(_ finding: ConnectionProbe.Finding, connectionsInUse: Int)
}
