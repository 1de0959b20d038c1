/// One named promise of the `UserRepository` contract, runnable against any backend.
public struct ConformanceCheck: Sendable, CustomStringConvertible {
    /// A short, stable name (shown by the test runner and by `accounts verify`).
    public let name: String
    /// The check itself: throws `ConformanceFailure` (or any error) when the promise is broken.
    public let run: @Sendable (ConformanceContext) async throws -> Void

    /// Creates a check.
    public init(_ name: String, run: @escaping @Sendable (ConformanceContext) async throws -> Void) {
        self.name = name
        self.run = run
    }

    public var description: String { name }
}
