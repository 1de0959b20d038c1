public import AccountBackendKit

/// Settings of a SQLite store (the `sqlite:` section of the config).
public struct SQLiteOptions: Sendable, Hashable {
    /// How hard each commit is flushed.
    public enum Synchronous: String, Sendable, CaseIterable {
        /// fsync the WAL on every commit: a returned call survives power loss (the default).
        case full
        /// fsync only at checkpoints: a crash of the machine (not the process) may lose the
        /// last commits, never consistency.
        case normal
    }

    /// The database file. Its folder must exist.
    public var path: String
    /// `PRAGMA synchronous`.
    public var synchronous: Synchronous
    /// How long to wait for another connection's write lock before `store_busy`.
    public var busyTimeoutMilliseconds: Int
    /// Whether opening may create an empty store when there is none (else `storeNotFound`).
    public var createIfMissing = true
    /// Whether opening may upgrade a store of an older format (else `storeUpgradeNeeded`).
    public var upgradesFormat = true

    /// Creates options.
    public init(
        path: String, synchronous: Synchronous = SQLiteBackendDescriptor.synchronous.defaultValue,
        busyTimeoutMilliseconds: Int = SQLiteBackendDescriptor.busyTimeout.defaultValue
    ) {
        self.path = path
        self.synchronous = synchronous
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }
}
