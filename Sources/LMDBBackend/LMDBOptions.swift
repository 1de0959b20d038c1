public import AccountBackendKit

/// Settings of an LMDB store (the `lmdb:` section of the config).
public struct LMDBOptions: Sendable, Hashable {
    /// How commits reach the disk.
    public enum Sync: String, Sendable, CaseIterable {
        /// Flush data and meta page on every commit: a returned call survives a power cut.
        case full
        /// `MDB_NOMETASYNC`: flush data, not the meta page; a power cut may lose the last commit,
        /// never consistency.
        case nometasync
        /// `MDB_NOSYNC`: no flush at commit; the OS writes back later. A power cut may lose recent
        /// commits (and, with some file systems, integrity); a process crash loses nothing.
        case none
    }

    /// The data file; LMDB keeps its lock file at `<path>-lock`. The folder must exist.
    public var path: String
    /// How commits reach the disk.
    public var sync: Sync
    /// The initial map size in MiB; it doubles automatically whenever a write fills it.
    public var mapSizeMiB: Int
    /// Whether opening may create an empty store when there is none (else `storeNotFound`).
    public var createIfMissing = true
    /// Whether opening may upgrade a store of an older format (else `storeUpgradeNeeded`).
    public var upgradesFormat = true

    /// Creates options.
    public init(
        path: String, sync: Sync = LMDBBackendDescriptor.sync.defaultValue,
        mapSizeMiB: Int = LMDBBackendDescriptor.mapSize.defaultValue
    ) {
        self.path = path
        self.sync = sync
        self.mapSizeMiB = mapSizeMiB
    }
}
