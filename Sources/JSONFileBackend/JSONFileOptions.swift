public import AccountBackendKit

/// Settings of a JSON-file store (the `json:` section of the config).
public struct JSONFileOptions: Sendable, Hashable {
    /// The store file. Its folder must exist; the lock file `<path>.lock` is kept beside it.
    public var path: String
    /// How long to wait for another process's write before failing with `store_busy`.
    public var lockTimeoutMilliseconds: Int
    /// Whether opening may create an empty store when there is none (else `storeNotFound`).
    public var createIfMissing = true
    /// Whether opening may upgrade a store of an older format (else `storeUpgradeNeeded`).
    public var upgradesFormat = true

    /// Creates options.
    public init(
        path: String, lockTimeoutMilliseconds: Int = JSONFileBackendDescriptor.lockTimeout.defaultValue
    ) {
        self.path = path
        self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
    }
}
