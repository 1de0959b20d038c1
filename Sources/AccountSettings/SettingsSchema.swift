import AccountBackendKit

/// Every key the config accepts: the global ones and each registered backend's section.
/// Unknown keys are errors, so a typo never silently falls back to a default.
struct SettingsSchema: Sendable {
    let keys: [SettingKey]
    /// The `backend` key: the first the loader reads, since it picks the section `--store` sets.
    let backendKey: SettingKey
    let backendNames: [String]
    /// The keys `--store` sets, one per backend, in the registry's order.
    let storeKeyNames: [String]

    /// The providers with a section (``ProvidersSection``), whose keys are known.
    let providerNames: [String]

    init(registry: BackendRegistry, providerNames: [String] = []) {
        self.providerNames = providerNames
        backendNames = registry.names
        storeKeyNames = registry.descriptors.map(Self.storeKeyName(of:))
        backendKey = Self.backendKey(backends: registry.names, defaultBackend: registry.defaultBackendName)
        var keys = [backendKey] + GlobalSections.keys
        for backend in registry.descriptors {
            keys.append(Self.storeKey(of: backend))
            keys += backend.options.map { SettingKey(section: backend.name, option: $0) }
        }
        for name in providerNames { keys += Self.providerKeys(name) }
        self.keys = keys
    }

    /// The keys of the provider `name`: what its section reads.
    static func providerKeys(_ name: String) -> [SettingKey] {
        let reader = SectionReader(
            section: ProvidersSection.section(name), source: .defaults, locations: XDGLocations(environment: [:]))
        do {
            _ = try ProvidersSection.read(reader)
        } catch {
            preconditionFailure("the built-in defaults of a provider's settings are refused: \(error)")
        }
        return reader.keys
    }

    /// This schema with the keys of the providers `names` too.
    func adding(providers names: [String], registry: BackendRegistry) -> SettingsSchema {
        SettingsSchema(registry: registry, providerNames: Array(Set(providerNames + names)).sorted())
    }

    /// The key naming `backend`'s store: `<name>.path` for a file backend, `<name>.<key>` for a
    /// server backend (`postgres.schema`). `--store` sets it; an unset file path defaults to
    /// the XDG data folder.
    static func storeKeyName(of backend: any BackendDescriptor) -> String {
        "\(backend.name).\(backend.storeKey)"
    }

    func key(named name: String) -> SettingKey? {
        keys.first { $0.name == name }
    }

    /// The sections (first components) that may appear at the top of a file.
    var sections: Set<String> {
        Set(keys.compactMap { $0.components.count > 1 ? $0.components[0] : nil })
    }

    /// The `backend` key, whose choices are the registry's.
    static func backendKey(backends: [String], defaultBackend: String) -> SettingKey {
        SettingKey(
            name: "backend", kind: .choice(backends), defaultValue: .word(defaultBackend),
            summary: "which backend keeps the accounts")
    }

    /// The key naming `backend`'s store (``storeKeyName(of:)``), with what it takes.
    static func storeKey(of backend: any BackendDescriptor) -> SettingKey {
        switch backend.storeLocation {
        case .file:
            SettingKey(
                name: storeKeyName(of: backend), kind: .path, defaultValue: nil,
                summary: "the store file (relative paths are resolved against the config file's folder)")
        case .named(let key, let defaultName):
            SettingKey(
                name: storeKeyName(of: backend), kind: .text, defaultValue: .word(defaultName),
                summary: "where on the server the store is (\(key)); several stores can share a server")
        }
    }
}
