import AccountBackendKit

/// One named promise of the `UserRepository` contract, runnable against any backend.
public struct ConformanceCheck: Sendable, CustomStringConvertible {
    /// A short, stable name (shown by the test runner and by `accounts verify`).
    public let name: String
    /// What a backend must declare for the check to run; any other backend skips it, and the
    /// skip names what is missing.
    public let requires: BackendCapabilities
    /// The check itself: throws `ConformanceFailure` (or any error) when the promise is broken.
    public let run: @Sendable (ConformanceContext) async throws -> Void

    /// Creates a check.
    public init(
        _ name: String, requires: BackendCapabilities = [],
        run: @escaping @Sendable (ConformanceContext) async throws -> Void
    ) {
        self.name = name
        self.requires = requires
        self.run = run
    }

    public var description: String { name }
}

/// Thrown by ``ConformanceSuite/run(_:on:)`` for a check the backend cannot run: it does not
/// declare every capability the check needs.
public struct ConformanceSkipped: Error, Sendable, CustomStringConvertible {
    /// The capabilities the check needs that the backend does not declare.
    public let missing: BackendCapabilities

    public var description: String { "skipped: the backend does not declare \(missing)" }
}
