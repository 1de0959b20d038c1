public import AccountBackendKit

/// One named promise of the `UserRepository` contract, runnable against any backend.
public struct ConformanceCheck: Sendable, CustomStringConvertible {
    /// A short, stable name (shown by the test runner and by `accounts verify`).
    public let name: String
    /// What a backend must declare for the check to run; any other backend skips it, and the
    /// skip names what is missing.
    public let requires: BackendCapabilities
    /// Whether the check is about store files (symbolic links, files beside the store): a
    /// backend that keeps its stores elsewhere (`StoreLocation.named`, as PostgreSQL does)
    /// skips it, and the skip says so.
    public let needsStoreFiles: Bool
    /// Whether the check cuts a store off mid-operation: a backend whose fixtures give no way to
    /// (``StoreFixtures/cutOff``) skips it, and the skip says so.
    public let needsCutOff: Bool
    /// The check itself: throws `ConformanceFailure` (or any error) when the promise is broken.
    public let run: @Sendable (ConformanceContext) async throws -> Void

    /// Creates a check.
    public init(
        _ name: String, requires: BackendCapabilities = [], needsStoreFiles: Bool = false, needsCutOff: Bool = false,
        run: @escaping @Sendable (ConformanceContext) async throws -> Void
    ) {
        self.name = name
        self.requires = requires
        self.needsStoreFiles = needsStoreFiles
        self.needsCutOff = needsCutOff
        self.run = run
    }

    public var description: String { name }
}

/// Thrown by ``ConformanceSuite/run(_:on:)`` for a check the backend cannot run: it does not
/// declare every capability the check needs, the check is about store files and the backend's
/// stores are not files, or the check cuts a store off and the backend's fixtures cannot.
public struct ConformanceSkipped: Error, Sendable, CustomStringConvertible {
    /// The capabilities the check needs that the backend does not declare (empty when it was
    /// skipped for one of the other reasons).
    public let missing: BackendCapabilities
    /// Whether the check is about store files and the backend keeps its stores elsewhere.
    public let storesNotInFiles: Bool
    /// Whether the check cuts a store off mid-operation and the backend's fixtures give no way
    /// to (``StoreFixtures/cutOff``).
    public let cannotCutOff: Bool

    public var description: String {
        if storesNotInFiles { return "skipped: the backend does not keep its stores in files" }
        if missing.isEmpty { return "skipped: the backend's fixtures give no way to cut a store off mid-operation" }
        return "skipped: the backend does not declare \(missing)"
    }
}
