public import AccountBackendKit
public import AccountCore
import Synchronization

/// The reference in-memory backend, `memory`: a store per location name, kept for the life of
/// the process. It declares what it cannot promise (durability, several processes,
/// self-describing stores), so the conformance suite skips those checks by name and runs the
/// rest. For an application's unit tests, `MemoryUserRepository()` alone is usually enough.
public struct MemoryBackendDescriptor: BackendDescriptor {
    /// The stores of this process, by location.
    private static let stores = Mutex([String: MemoryUserRepository]())

    /// Describes the backend.
    public init() {}

    public var name: String { "memory" }
    public var summary: String { "in memory, for tests: lost when the process ends, never shared between processes" }
    public var storeLocation: StoreLocation { .named(key: "name", defaultName: "accounts") }
    public var options: [BackendOption] { [] }
    public var formatVersion: Int { MemoryUserRepository.formatVersion }
    public var capabilities: BackendCapabilities { [.survivesReopen, .sharedInstances] }

    /// The store called `configuration.location`, made empty on first use when
    /// `createIfMissing` is set.
    /// - Throws: `AccountError.storeNotFound` when there is none and it may not be created.
    public func open(_ configuration: BackendConfiguration) async throws -> any UserRepository {
        try Self.stores.withLock { (stores) throws(AccountError) -> MemoryUserRepository in
            if let existing = stores[configuration.location] { return existing }
            guard configuration.createIfMissing else { throw .storeNotFound(location: configuration.location) }
            let store = MemoryUserRepository()
            stores[configuration.location] = store
            return store
        }
    }

    /// Forgets the store called `name` (for tests that reuse a name).
    public static func discard(_ name: String) {
        _ = stores.withLock { $0.removeValue(forKey: name) }
    }
}
