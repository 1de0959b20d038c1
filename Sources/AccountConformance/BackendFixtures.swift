public import AccountBackendKit
import AccountCore

/// What the conformance suite (and `accounts-bench`'s scratch stores) need of a backend beyond
/// what storing accounts needs: an old or new store to plant, samples of its files for the other
/// backends to refuse, and for a backend whose stores are not files, where scratch stores go and
/// how to look at them. `BackendDescriptor` is only what a backend must do; a backend adopts
/// this beside it, as the standard ones and the repository's `Examples/CustomBackend` do.
///
/// A backend that does not adopt it still runs the suite: its stores are files at the scratch
/// paths, it has no samples for the others to refuse, and the store-format check that plants a
/// newer store fails, saying that this protocol is missing (``ConformanceSubject``).
public protocol BackendFixtures: BackendDescriptor {
    /// Creates an empty store of this backend at `configuration.location`, stamped with
    /// `formatVersion` (the suite plants a newer version to see it refused).
    /// Needed only with the `selfDescribingStores` capability.
    /// - Throws: `AccountError.storeIO` when it cannot be written.
    func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws

    /// Files of this backend's kind that other backends must recognise and refuse (the suite
    /// plants them at another backend's store path).
    var foreignStoreSamples: [ForeignStoreSample] { get }

    /// The suite's fixtures for a backend whose stores are not plain files (a server backend
    /// plants foreign and damaged stores its own way); `nil` for file backends, which get
    /// ``StoreFixtures/files(samples:)``.
    /// - Parameter values: the section's settings (how to reach the server).
    func conformanceFixtures(values: [String: BackendOptionValue]) -> StoreFixtures?

    /// Maps a path inside the suite's scratch folder to a store location of this backend (a
    /// server backend turns it into a schema name); file backends keep the path.
    func scratchLocation(for path: String) -> String
}

extension BackendFixtures {
    public var foreignStoreSamples: [ForeignStoreSample] { [] }

    public func conformanceFixtures(values: [String: BackendOptionValue]) -> StoreFixtures? { nil }

    public func scratchLocation(for path: String) -> String { path }
}

extension BackendDescriptor {
    /// This backend's fixtures, when it provides them.
    public var fixtures: (any BackendFixtures)? { self as? any BackendFixtures }

    /// Where the scratch store at `path` is: ``BackendFixtures/scratchLocation(for:)`` when the
    /// backend provides it, else the path itself.
    public func scratchStoreLocation(for path: String) -> String {
        fixtures?.scratchLocation(for: path) ?? path
    }
}

extension BackendRegistry {
    /// Every registered backend's foreign-store samples except `name`'s own.
    public func foreignStoreSamples(except name: String) -> [ForeignStoreSample] {
        descriptors.filter { $0.name != name }.flatMap { $0.fixtures?.foreignStoreSamples ?? [] }
    }
}
