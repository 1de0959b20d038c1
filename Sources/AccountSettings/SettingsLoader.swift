public import AccountBackendKit
public import AccountCore
import AccountJSON
import AccountServerSettings
import Configuration
import DurableFiles
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// Resolves `AccountSettings` from flags, the `ACCOUNTS_…` environment, a YAML config file and
/// built-in defaults, in that order of precedence, through apple/swift-configuration.
///
/// A value of the wrong type or out of range, an unknown key, or an unknown backend is an error
/// that names the key; nothing silently falls back to a default.
public enum SettingsLoader {
    /// Environment variables that are not settings themselves.
    static let reservedEnvironment: Set<String> = ["ACCOUNTS_CONFIG"]

    /// Loads the settings.
    /// - Parameters:
    ///   - overrides: the command line's values.
    ///   - environment: the process environment (injected for tests).
    ///   - workingDirectory: what relative paths on the command line and in the environment
    ///     are relative to.
    public static func load(
        overrides: SettingsOverrides,
        environment: [String: String],
        workingDirectory: String,
        registry: BackendRegistry
    ) async throws(AccountError) -> AccountSettings {
        try await resolve(
            overrides: overrides, environment: environment, workingDirectory: workingDirectory, registry: registry,
            describing: false
        ).settings
    }

    /// Loads the settings as ``load(overrides:environment:workingDirectory:registry:)`` does, and
    /// describes every setting with where its value came from: the keys of every backend
    /// section, those of backends an embedding executable added included. One resolve serves
    /// both, so the description cannot disagree with what was loaded, and a config `load`
    /// refuses is refused here with the same error. A secret's value is never described.
    public static func loadDescribed(
        overrides: SettingsOverrides,
        environment: [String: String],
        workingDirectory: String,
        registry: BackendRegistry
    ) async throws(AccountError) -> (settings: AccountSettings, effective: [EffectiveSetting]) {
        try await resolve(
            overrides: overrides, environment: environment, workingDirectory: workingDirectory, registry: registry,
            describing: true)
    }

    private static func resolve(
        overrides: SettingsOverrides, environment: [String: String], workingDirectory: String,
        registry: BackendRegistry, describing: Bool
    ) async throws(AccountError) -> (settings: AccountSettings, effective: [EffectiveSetting]) {
        var schema = SettingsSchema(registry: registry)
        var sources = SettingSources(overrides: overrides, environment: environment)
        do {
            return try await load(overrides, environment, workingDirectory, registry, &schema, &sources, describing)
        } catch {
            throw sources.explain(error, schema: schema)
        }
    }

    private static func load(
        _ overrides: SettingsOverrides, _ environment: [String: String], _ workingDirectory: String,
        _ registry: BackendRegistry, _ schema: inout SettingsSchema, _ sources: inout SettingSources,
        _ describing: Bool
    ) async throws(AccountError) -> (settings: AccountSettings, effective: [EffectiveSetting]) {
        // The providers the environment names are known before its variables are checked,
        // those the file names before its keys are.
        schema = schema.adding(
            providers: try ProvidersSection.names(fileKeys: [], environment: environment), registry: registry)
        try rejectUnknownEnvironment(environment, schema: schema)
        let locations = XDGLocations(environment: environment)
        let configFile = try findConfigFile(overrides, environment, workingDirectory, locations)
        var fileProvider: (any ConfigProvider)?
        if let configFile { fileProvider = try checkedFileProvider(configFile, registry, &schema, &sources) }
        let layers = ConfigLayers(environment: environment, file: fileProvider, defaults: defaultValues(schema))

        // The backend decides which section `--store` lands in, so it is read first.
        let backendFlag = overrides.backend.map {
            [AbsoluteConfigKey(["backend"]): ConfigValue(.string($0), isSecret: false)]
        }
        let descriptor = try registry.descriptor(
            named: try string(layers.reader(flags: backendFlag ?? [:]), schema.backendKey))
        sources.storeKeyName = SettingsSchema.storeKeyName(of: descriptor)
        let flags = commandLineFlags(overrides, storeKey: [descriptor.name, descriptor.storeKey])
        let config = layers.reader(flags: flags)
        // A piped config (`--config <(…)`, /dev/fd/63) has no folder of its own to be relative to.
        let configFolder = configFile.map { file in
            StoreFile.isRegularFile(file) ? StorePath.directory(of: file) : workingDirectory
        }
        let origins = PathOrigins(
            flags: flags, environment: environment, fileProvider: fileProvider, configFolder: configFolder,
            workingDirectory: workingDirectory)

        var sections: [String: ConfiguredBackend] = [:]
        for backend in registry.descriptors {
            sections[backend.name] = ConfiguredBackend(
                backend, try section(backend, config, origins, environment, locations), in: registry)
        }
        let storePath = descriptor.storesInFiles ? try origins.resolve(SettingsSchema.storeKey(of: descriptor)) : nil
        let global = try GlobalSections.read(.layered(config, origins), locations: locations).sections
        let settings = AccountSettings(
            backend: sections[descriptor.name]!, sections: sections,
            sessionFile: global.sessionFile ?? locations.stateDirectory + "/session", configFile: configFile,
            configFileText: sources.fileText, passwordPolicy: global.passwordPolicy,
            sessionPolicy: global.sessionPolicy, accessTokens: global.accessTokens,
            throttlePolicy: global.throttlePolicy, hasher: global.hasher,
            legacyLimits: global.legacyLimits,
            storePathIsDefault: descriptor.storesInFiles && storePath == nil,
            sessionFileIsDefault: global.sessionFile == nil, server: global.server, mail: global.mail,
            recovery: global.recovery,
            providers: try readProviders(schema.providerNames, .layered(config, origins), locations, global.server))
        guard describing else { return (settings, []) }
        let reading = EffectiveReading(
            config: config, origins: origins, sources: sources, schema: schema, registry: registry,
            environment: environment, settings: settings)
        var effective: [EffectiveSetting] = []
        for key in schema.keys { effective.append(try reading.setting(key)) }
        return (settings, effective)
    }

    /// The config file's provider, once every key in it is known to the schema, of the kind the
    /// key takes, and no secret; `nil` for an empty document. Records the file in `sources`.
    private static func checkedFileProvider(
        _ configFile: String, _ registry: BackendRegistry, _ schema: inout SettingsSchema,
        _ sources: inout SettingSources
    ) throws(AccountError) -> (any ConfigProvider)? {
        let (bytes, text) = try readText(configFile)
        guard try !ConfigFileKeys.isEmptyDocument(text) else { return nil }
        sources.configFile = configFile
        sources.fileText = text
        let nonText = ConfigFileKeys.nonTextKeys(inYAML: text)
        let fileKeys = try ConfigFileKeys.leafKeys(inYAML: text, file: configFile)
        schema = schema.adding(
            providers: try ProvidersSection.names(fileKeys: fileKeys, environment: [:]), registry: registry)
        for key in fileKeys {
            guard let known = schema.key(named: key) else { throw unknownKey(key, schema: schema, file: configFile) }
            if nonText.contains(key), [.path, .text].contains(known.kind) {
                throw .configInvalid(
                    key: key,
                    reason: "expected \(known.expectation), not a number or true/false (quote it to mean text)")
            }
            if known.kind == .secret {
                throw .configInvalid(
                    key: key,
                    reason:
                        "a secret never goes in a config file (\(configFile)); set \(known.environmentName) or use a password file"
                )
            }
        }
        return try yamlProvider(bytes, configFile)
    }

    /// The providers' sections; any provider needs `server.public_url`, which its callback
    /// address is made from.
    private static func readProviders(
        _ names: [String], _ source: SectionReader.Source, _ locations: XDGLocations, _ server: ServerSettings
    ) throws(AccountError) -> [ProviderSettings] {
        var providers: [ProviderSettings] = []
        for name in names {
            providers.append(
                try ProvidersSection.read(
                    SectionReader(section: ProvidersSection.section(name), source: source, locations: locations)))
        }
        if let first = providers.first, server.publicURL.isEmpty {
            throw .configInvalid(
                key: "server.public_url",
                reason:
                    "the provider \(first.name) needs it: its callback is PUBLIC_URL/v1/providers/\(first.name)/callback"
            )
        }
        return providers
    }

    /// What the command line sets: `--backend`, `--store` (the chosen backend's `storeKey`),
    /// `--session-file`, and `accounts serve`'s `--host` and `--port`.
    private static func commandLineFlags(_ overrides: SettingsOverrides, storeKey: [String]) -> [AbsoluteConfigKey:
        ConfigValue]
    {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        func set(_ components: [String], _ content: ConfigContent?) {
            if let content { flags[AbsoluteConfigKey(components)] = ConfigValue(content, isSecret: false) }
        }
        set(["backend"], overrides.backend.map { .string($0) })
        set(storeKey, overrides.store.map { .string($0) })
        set(["session", "file"], overrides.sessionFile.map { .string($0) })
        set(["server", "host"], overrides.serverHost.map { .string($0) })
        set(["server", "port"], overrides.serverPort.map { .int($0) })
        return flags
    }

    /// A secret's value: straight from the environment, never a file, a flag or a default. An
    /// empty variable counts as unset, as `BackendSetting.secret` reads it (and libpq an empty
    /// `PGPASSWORD`), so `ACCOUNTS_POSTGRES_PASSWORD=` in a unit means "read the password file",
    /// and `accounts config` lists it as `(none)`, not as set.
    static func secret(_ key: SettingKey, _ environment: [String: String]) -> String? {
        environment[key.environmentName].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// One backend's section: every option (defaults filled in) and where its store is.
    private static func section(
        _ descriptor: any BackendDescriptor, _ config: ConfigReader, _ origins: PathOrigins,
        _ environment: [String: String], _ locations: XDGLocations
    ) throws(AccountError) -> BackendConfiguration {
        let backendName = descriptor.name
        var values: [String: BackendOptionValue] = [:]
        for option in descriptor.options {
            let key = SettingKey(section: backendName, option: option)
            values[option.name] =
                switch option.kind {
                case .path: try origins.resolve(key).map { .word($0) }
                case .secret: secret(key, environment).map { .secret($0) }
                case .integer, .choice, .text, .boolean: try optionValue(config, key)
                }
        }
        let storeKey = SettingsSchema.storeKey(of: descriptor)
        let location: String
        switch descriptor.storeLocation {
        case .file(let defaultName):
            location = try origins.resolve(storeKey) ?? locations.dataDirectory + "/" + defaultName
        case .named:
            location = try string(config, storeKey)
        }
        return BackendConfiguration(location: location, values: values)
    }

    // MARK: - Reading typed values

    /// The value of a key that is read from the layered sources (not a path or a secret), as
    /// the option value its kind takes.
    static func optionValue(_ config: ConfigReader, _ key: SettingKey) throws(AccountError) -> BackendOptionValue {
        switch key.kind {
        case .integer: .integer(try integer(config, key))
        case .boolean: .boolean(try boolean(config, key))
        case .choice, .text, .path, .secret: .word(try string(config, key))
        }
    }

    static func string(_ config: ConfigReader, _ key: SettingKey) throws(AccountError) -> String {
        let value: String
        do {
            value = try config.requiredString(forKey: ConfigKey(key.components))
        } catch {
            throw .configInvalid(key: key.name, reason: "expected \(key.expectation)")
        }
        if case .choice(let words) = key.kind, !words.contains(value) {
            if key.name == "backend" { throw .unknownBackend(name: value, known: words) }
            throw .configInvalid(key: key.name, reason: "'\(value)' is not \(key.expectation)")
        }
        return value
    }

    static func integer(_ config: ConfigReader, _ key: SettingKey) throws(AccountError) -> Int {
        let value: Int
        do {
            value = try config.requiredInt(forKey: ConfigKey(key.components))
        } catch {
            throw .configInvalid(key: key.name, reason: "expected \(key.expectation)")
        }
        if case .integer(let range) = key.kind, !range.contains(value) {
            throw .configInvalid(key: key.name, reason: "\(value) is out of range; expected \(key.expectation)")
        }
        return value
    }

    static func boolean(_ config: ConfigReader, _ key: SettingKey) throws(AccountError) -> Bool {
        do {
            return try config.requiredBool(forKey: ConfigKey(key.components))
        } catch {
            throw .configInvalid(key: key.name, reason: "expected \(key.expectation)")
        }
    }

    // MARK: - Sources

    private static func defaultValues(_ schema: SettingsSchema) -> [AbsoluteConfigKey: ConfigValue] {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for key in schema.keys {
            let content: ConfigContent
            switch key.defaultValue {
            case .integer(let number): content = .int(number)
            case .boolean(let flag): content = .bool(flag)
            case .word(let text): content = .string(text)
            case .secret, nil: continue
            }
            values[AbsoluteConfigKey(key.components)] = ConfigValue(content, isSecret: false)
        }
        return values
    }

    private static func rejectUnknownEnvironment(_ environment: [String: String], schema: SettingsSchema)
        throws(AccountError)
    {
        let known = Set(schema.keys.map(\.environmentName)).union(reservedEnvironment)
        for name in environment.keys.sorted() where name.hasPrefix("ACCOUNTS_") && !known.contains(name) {
            let hint = EnvironmentNameHint(schema: schema).hint(for: name).map { " (\($0))" } ?? ""
            throw .configInvalid(key: name, reason: "unknown environment setting\(hint)")
        }
    }

    private static func findConfigFile(
        _ overrides: SettingsOverrides, _ environment: [String: String], _ workingDirectory: String,
        _ locations: XDGLocations
    ) throws(AccountError) -> String? {
        let explicit = overrides.configFile ?? environment["ACCOUNTS_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        if let explicit {
            let key = overrides.configFile != nil ? "--config" : "ACCOUNTS_CONFIG"
            let path = try PathOrigins.absolute(explicit, relativeTo: workingDirectory, environment, key)
            guard FileManager.default.fileExists(atPath: path) else {
                throw .configInvalid(key: key, reason: "no config file at \(path)")
            }
            return path
        }
        let fallback = locations.configDirectory + "/config.yaml"
        return FileManager.default.fileExists(atPath: fallback) ? fallback : nil
    }

    /// The most a config file may hold: the full commented sample is a few KiB, and a device
    /// named by mistake (`/dev/zero`) would otherwise be read until memory runs out.
    private static let configFileLimit = 1 << 20

    /// The config file's bytes and text, read once (it may be a pipe, which gives them once).
    private static func readText(_ path: String) throws(AccountError) -> (bytes: [UInt8], text: String) {
        let bytes: [UInt8]
        do {
            bytes = try WholeInput.read(path, atMost: configFileLimit)
        } catch  where error.code == EFBIG {
            throw .configInvalid(key: path, reason: "the config file is larger than 1 MiB: is it the right file?")
        } catch {
            throw .configInvalid(key: path, reason: "the config file cannot be read: \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .configInvalid(key: path, reason: "the config file is not UTF-8 text")
        }
        return (bytes, text)
    }

    private static func yamlProvider(_ bytes: [UInt8], _ path: String) throws(AccountError) -> any ConfigProvider {
        do {
            return try YAMLTextProvider(bytes, file: path)
        } catch {
            throw .configInvalid(key: path, reason: "the config file cannot be parsed: \(error)")
        }
    }

    private static func unknownKey(_ key: String, schema: SettingsSchema, file: String) -> AccountError {
        let section = key.split(separator: ".").first.map(String.init) ?? key
        if !key.contains("."), schema.sections.contains(section) {
            return .configInvalid(key: key, reason: "'\(key)' is a section; put its settings under it (in \(file))")
        }
        if key.contains("."), !schema.sections.contains(section) {
            return .configInvalid(
                key: key,
                reason:
                    "unknown section '\(section)' in \(file); known sections: \(schema.sections.sorted().joined(separator: ", "))"
            )
        }
        if !key.contains(".") {
            // A section's key written at the top (`port: 9000`): name the key it most likely is.
            let name = String(key)
            // The global sections' keys first: a backend's are read only when it is chosen.
            let near = schema.keys.filter { $0.components.count > 1 }.map { key in
                (
                    name: key.name, distance: EditDistance.between(name, key.components[1]),
                    backend: schema.backendNames.contains(key.components[0]) ? 1 : 0
                )
            }.filter { $0.distance <= 2 }.sorted {
                ($0.distance, $0.backend, $0.name) < ($1.distance, $1.backend, $1.name)
            }
            .map(\.name)
            let hint =
                near.isEmpty
                ? "at the top only backend and the sections (\(schema.sections.sorted().joined(separator: ", "))) go"
                : "did you mean \(near.prefix(3).joined(separator: " or ")), under its section?"
            return .configInvalid(key: key, reason: "unknown key at the top of \(file); \(hint)")
        }
        let siblings = schema.keys.filter { $0.name.hasPrefix(section + ".") }.map(\.name)
        return .configInvalid(
            key: key, reason: "unknown key in \(file); known here: \(siblings.joined(separator: ", "))")
    }
}

extension SettingsLoader {
    /// Every key the config accepts, dotted (for docs and tests).
    public static func documentedKeys(registry: BackendRegistry) -> [String] {
        SettingsSchema(registry: registry).keys.map(\.name)
    }

    /// The backends a config may name.
    public static func backendNames(registry: BackendRegistry) -> [String] {
        registry.names
    }

    /// Every key with its environment variable, what it expects, its default and its meaning:
    /// the reference the Configuration article's table is checked against.
    public static func keyReference(registry: BackendRegistry) -> [(
        key: String, environment: String, expects: String, default: String?, summary: String
    )] {
        SettingsSchema(registry: registry).keys.map {
            ($0.name, $0.environmentName, $0.expectation, $0.defaultValue?.description, $0.summary)
        }
    }
}
