public import AccountCore

/// A backend chosen and set up: its descriptor and the configuration its store opens with,
/// recognising the other backends' stores. The settings loader resolves one for the chosen
/// backend (and one per section, for a command that opens a second store), and every command
/// opens, checks and describes the store from it, never looking the backend up again by name.
public struct ConfiguredBackend: Sendable, CustomStringConvertible {
    /// The backend.
    public let descriptor: any BackendDescriptor
    /// Where its store is and the section's settings (``BackendConfiguration/recognizer`` set).
    public var configuration: BackendConfiguration

    /// `descriptor` with `configuration`, recognising the stores of `registry`'s backends.
    public init(
        _ descriptor: any BackendDescriptor, _ configuration: BackendConfiguration, in registry: BackendRegistry
    ) {
        self.descriptor = descriptor
        var configuration = configuration
        configuration.recognizer = registry.recognizer
        self.configuration = configuration
    }

    /// The backend's name.
    public var name: String { descriptor.name }

    /// Where the store is: a file path, or a place's name on a server.
    public var location: String { configuration.location }

    /// Opens the store. Only work that writes new accounts passes `creating` (a missing store is
    /// otherwise `storeNotFound`, and nothing is created); work that only reads passes
    /// `reading`, so a store of an older format is refused with `storeUpgradeNeeded`, unchanged,
    /// instead of upgraded.
    /// - Throws: what the backend's ``BackendDescriptor/open(_:)`` throws.
    public func open(creating: Bool = false, reading: Bool = false) async throws -> any UserRepository {
        var configuration = configuration
        configuration.createIfMissing = creating
        configuration.upgradesFormat = !reading
        return try await descriptor.open(configuration)
    }

    /// Checks the configuration as ``open(creating:reading:)`` would before it reaches the store.
    /// - Throws: `AccountError.configInvalid` naming the setting.
    public func validate() throws(AccountError) {
        try descriptor.validate(configuration)
    }

    /// This backend with its store at `location` instead.
    public func atLocation(_ location: String) -> ConfiguredBackend {
        var copy = self
        copy.configuration.location = location
        return copy
    }

    public var description: String { "\(name) at \(location)" }
}
