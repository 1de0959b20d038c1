import AccountCore

/// The one place that knows every backend compiled in: maps a name and its config section to a
/// ready `UserRepository`.
public struct BackendRegistry: Sendable {
    /// The backends, in the order `accounts backends` lists them.
    public let descriptors: [BackendDescriptor]

    /// Every backend this build has.
    public static let standard = BackendRegistry(descriptors: [.sqlite, .lmdb, .json, .postgres])

    /// The backends that keep their store in files on this host.
    public static let embedded = BackendRegistry(descriptors: standard.descriptors.filter(\.storesInFiles))

    /// The backend used when no config chooses one.
    public static let defaultBackendName = "sqlite"

    /// A registry of these backends.
    public init(descriptors: [BackendDescriptor]) {
        self.descriptors = descriptors
    }

    /// The names, in order.
    public var names: [String] { descriptors.map(\.name) }

    /// The backend called `name`.
    /// - Throws: `AccountError.unknownBackend` listing the known names.
    public func descriptor(named name: String) throws(AccountError) -> BackendDescriptor {
        guard let found = descriptors.first(where: { $0.name == name }) else {
            throw .unknownBackend(name: name, known: names)
        }
        return found
    }

    /// Opens the store of backend `name` with `configuration`.
    public func open(_ name: String, _ configuration: BackendConfiguration) async throws -> any UserRepository {
        try await descriptor(named: name).open(configuration)
    }
}
