public import AccountBackendKit

/// What the conformance suite (and `accounts-bench`'s scratch stores) need of a backend beyond
/// what storing accounts needs: an old or new store to plant, samples of its files for the other
/// backends to refuse, and for a backend whose stores are not files, where scratch stores go and
/// how to look at them.
///
/// A backend's fixtures are a value of their own, kept apart from its `BackendDescriptor` so
/// that a program that embeds the backend never links the suite (fluent-kit's drivers name
/// `FluentBenchmark` only in their tests). The standard backends' are in the
/// `StandardBackendFixtures` module; the repository's `Examples/CustomBackend` keeps its
/// journal's in a target of their own. A program gives the suite the fixtures of the backends it
/// offers in a ``BackendFixtureSet``.
///
/// A backend without fixtures still runs the suite: its stores are files at the scratch paths,
/// it has no samples for the others to refuse, and the store-format check that plants a newer
/// store fails, saying that its fixtures are missing (``ConformanceSubject``).
public protocol BackendFixtures: Sendable {
    /// The name of the backend these fixtures are for (its descriptor's `name`).
    var backendName: String { get }

    /// Creates an empty store of the backend at `configuration.location`, stamped with
    /// `formatVersion` (the suite plants a newer version to see it refused).
    /// Needed only with the `selfDescribingStores` capability.
    /// - Throws: `AccountError.storeIO` when it cannot be written.
    func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws

    /// Files of the backend's kind that other backends must recognise and refuse (the suite
    /// plants them at another backend's store path).
    var foreignStoreSamples: [ForeignStoreSample] { get }

    /// The suite's fixtures for a backend whose stores are not plain files (a server backend
    /// plants foreign and damaged stores its own way); `nil` for file backends, which get
    /// ``StoreFixtures/files(samples:)``.
    /// - Parameter values: the section's settings (how to reach the server).
    func storeFixtures(values: [String: BackendOptionValue]) -> StoreFixtures?

    /// Maps a path inside the suite's scratch folder to a store location of the backend (a
    /// server backend turns it into a schema name); file backends keep the path.
    func scratchLocation(for path: String) -> String
}

extension BackendFixtures {
    public var foreignStoreSamples: [ForeignStoreSample] { [] }

    public func storeFixtures(values: [String: BackendOptionValue]) -> StoreFixtures? { nil }

    public func scratchLocation(for path: String) -> String { path }
}
