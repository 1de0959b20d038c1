public import AccountCore

/// The backends a program offers, by name: what `backend:` / `--backend` choose from. It names
/// no backend itself; a program assembles one (the `StandardBackends` module has the built-in set)
/// and may add its own backends with ``adding(_:)``, as fluent-kit's `Databases.use(_:as:)` does.
public struct BackendRegistry: Sendable {
    /// The backends, in the order `accounts backends` lists them.
    public let descriptors: [any BackendDescriptor]
    /// The backend used when no config chooses one.
    public let defaultBackendName: String

    /// A registry of these backends; the first is the default unless `defaultBackend` names another.
    /// Precondition: names are unique and `defaultBackend`, when given, is one of them.
    public init(_ descriptors: [any BackendDescriptor], defaultBackend: String? = nil) {
        let names = descriptors.map(\.name)
        precondition(Set(names).count == names.count, "two backends share a name: \(names)")
        precondition(defaultBackend.map(names.contains) ?? true, "the default backend is not registered")
        self.descriptors = descriptors
        defaultBackendName = defaultBackend ?? names.first ?? ""
    }

    /// This registry with `backend` added at the end (replacing one of the same name).
    public func adding(_ backend: any BackendDescriptor) -> BackendRegistry {
        BackendRegistry(descriptors.filter { $0.name != backend.name } + [backend], defaultBackend: defaultBackendName)
    }

    /// The names, in order.
    public var names: [String] { descriptors.map(\.name) }

    /// The backend called `name`.
    /// - Throws: `AccountError.unknownBackend` listing the known names.
    public func descriptor(named name: String) throws(AccountError) -> any BackendDescriptor {
        guard let found = descriptors.first(where: { $0.name == name }) else {
            throw .unknownBackend(name: name, known: names)
        }
        return found
    }

    /// Tells what a file is by asking every registered backend.
    public var recognizer: StoreRecognizer {
        StoreRecognizer(descriptors.map { backend in { header in backend.recognize(fileHeader: header) } })
    }

    /// Backend `name` with `configuration`, recognising the registered backends' stores.
    /// - Throws: `AccountError.unknownBackend` listing the known names.
    public func configured(_ name: String, _ configuration: BackendConfiguration) throws(AccountError)
        -> ConfiguredBackend
    {
        ConfiguredBackend(try descriptor(named: name), configuration, in: self)
    }

    /// Opens the store of backend `name` at `configuration` (creating it when it is missing and
    /// `configuration.createIfMissing` is set), recognising the other backends' stores.
    /// - Throws: `AccountError.unknownBackend`, or what the backend's `open` throws.
    public func open(_ name: String, _ configuration: BackendConfiguration) async throws -> any UserRepository {
        try await open(descriptor(named: name), configuration)
    }

    /// Opens a store of `backend` (which need not be registered) at `configuration`,
    /// recognising the registered backends' stores.
    /// - Throws: what the backend's `open` throws.
    public func open(_ backend: any BackendDescriptor, _ configuration: BackendConfiguration) async throws
        -> any UserRepository
    {
        try await backend.open(ConfiguredBackend(backend, configuration, in: self).configuration)
    }
}
