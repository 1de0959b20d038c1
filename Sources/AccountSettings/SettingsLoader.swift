public import AccountBackendKit
public import AccountCore
import Configuration
import FileSupport
import Foundation
import JSONSupport
import NetworkSupport

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
        let schema = SettingsSchema(registry: registry)
        var sources = SettingSources(overrides: overrides, environment: environment)
        do {
            return try await load(overrides, environment, workingDirectory, registry, schema, &sources, describing)
        } catch {
            throw sources.explain(error, schema: schema)
        }
    }

    private static func load(
        _ overrides: SettingsOverrides, _ environment: [String: String], _ workingDirectory: String,
        _ registry: BackendRegistry, _ schema: SettingsSchema, _ sources: inout SettingSources, _ describing: Bool
    ) async throws(AccountError) -> (settings: AccountSettings, effective: [EffectiveSetting]) {
        try rejectUnknownEnvironment(environment, schema: schema)
        let locations = XDGLocations(environment: environment)
        let configFile = try findConfigFile(overrides, environment, workingDirectory, locations)
        var fileProvider: (any ConfigProvider)?
        if let configFile, case (let bytes, let text) = try readText(configFile),
            try !ConfigFileKeys.isEmptyDocument(text)
        {
            sources.configFile = configFile
            sources.fileText = text
            let nonText = ConfigFileKeys.nonTextKeys(inYAML: text)
            for key in try ConfigFileKeys.leafKeys(inYAML: text, file: configFile) {
                if let known = schema.key(named: key), nonText.contains(key),
                    [.path, .text].contains(known.kind)
                {
                    throw .configInvalid(
                        key: key,
                        reason: "expected \(known.expectation), not a number or true/false (quote it to mean text)")
                }
                guard let known = schema.key(named: key) else {
                    throw unknownKey(key, schema: schema, file: configFile)
                }
                if known.kind == .secret {
                    throw .configInvalid(
                        key: key,
                        reason:
                            "a secret never goes in a config file (\(configFile)); set \(known.environmentName) or use a password file"
                    )
                }
            }
            fileProvider = try yamlProvider(bytes, configFile)
        }
        let environmentProvider = EnvironmentVariablesProvider(environmentVariables: environment)
            .prefixKeys(with: ConfigKey("accounts"))
        let defaults = InMemoryProvider(name: "defaults", values: defaultValues(schema))

        func reader(_ flags: [AbsoluteConfigKey: ConfigValue]) -> ConfigReader {
            var providers: [any ConfigProvider] = [InMemoryProvider(name: "flags", values: flags), environmentProvider]
            if let fileProvider { providers.append(fileProvider) }
            providers.append(defaults)
            return ConfigReader(providers: providers)
        }

        // The backend decides which section `--store` lands in, so it is read first.
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        if let backend = overrides.backend {
            flags[AbsoluteConfigKey(["backend"])] = .init(.string(backend), isSecret: false)
        }
        let backendName = try string(reader(flags), schema.backendKey)
        let descriptor = try registry.descriptor(named: backendName)
        sources.storeKeyName = SettingsSchema.storeKeyName(of: descriptor)
        if let store = overrides.store {
            flags[AbsoluteConfigKey([backendName, descriptor.storeKey])] = .init(.string(store), isSecret: false)
        }
        if let session = overrides.sessionFile {
            flags[AbsoluteConfigKey(["session", "file"])] = .init(.string(session), isSecret: false)
        }
        if let host = overrides.serverHost {
            flags[AbsoluteConfigKey(["server", "host"])] = .init(.string(host), isSecret: false)
        }
        if let port = overrides.serverPort {
            flags[AbsoluteConfigKey(["server", "port"])] = .init(.int(port), isSecret: false)
        }
        let config = reader(flags)
        // A piped config (`--config <(…)`, /dev/fd/63) has no folder of its own to be relative to.
        let configFolder = configFile.map { file in
            StoreFile.isRegularFile(file) ? StorePath.directory(of: file) : workingDirectory
        }
        let origins = PathOrigins(
            flags: flags, environment: environment, fileProvider: fileProvider, configFolder: configFolder,
            workingDirectory: workingDirectory)

        var sections: [String: BackendConfiguration] = [:]
        for other in registry.descriptors {
            sections[other.name] = try section(other, config, origins, environment, schema, locations)
        }
        let storePath: String? =
            descriptor.storesInFiles
            ? try origins.resolve(SettingsSchema.storeKey(of: descriptor)) : nil
        let sessionPath = try origins.resolve(GlobalSettings.sessionFile.key)
        guard let backend = sections[backendName] else {
            throw .unknownBackend(name: backendName, known: registry.names)
        }
        func read<Value>(_ setting: GlobalSetting<Value>) throws(AccountError) -> Value {
            try value(of: setting, config)
        }

        let settings = AccountSettings(
            backendName: backendName,
            backend: backend,
            sections: sections,
            sessionFile: sessionPath ?? locations.stateDirectory + "/session",
            configFile: configFile,
            configFileText: sources.fileText,
            passwordPolicy: PasswordPolicy(
                minimumLength: try read(GlobalSettings.minimumPasswordLength),
                minimumGuessesLog10: Double(try read(GlobalSettings.minimumGuessesLog10))),
            sessionPolicy: SessionPolicy(
                idleTimeoutSeconds: Int64(try read(GlobalSettings.idleTimeoutMinutes)) * 60,
                absoluteTimeoutSeconds: Int64(try read(GlobalSettings.absoluteTimeoutHours)) * 3_600,
                rememberIdleTimeoutSeconds: Int64(try read(GlobalSettings.rememberIdleTimeoutDays)) * 86_400,
                rememberAbsoluteTimeoutSeconds: Int64(try read(GlobalSettings.rememberAbsoluteTimeoutDays)) * 86_400),
            throttlePolicy: LoginThrottlePolicy(
                backoff: ThrottlePolicy(
                    freeAttempts: try read(GlobalSettings.throttleAfter),
                    baseDelaySeconds: Int64(try read(GlobalSettings.throttleBaseDelaySeconds)),
                    maximumDelaySeconds: Int64(try read(GlobalSettings.throttleMaxDelaySeconds))),
                accountCeiling: try read(GlobalSettings.accountCeiling),
                ceilingDrainSeconds: Int64(try read(GlobalSettings.ceilingDrainSeconds))),
            hashOpsLimit: try read(GlobalSettings.hashOpsLimit),
            hashMemLimitKiB: try read(GlobalSettings.hashMemoryKiB),
            storePathIsDefault: descriptor.storesInFiles && storePath == nil,
            sessionFileIsDefault: sessionPath == nil,
            server: try serverSettings(config, origins, locations))
        guard describing else { return (settings, []) }
        let reading = EffectiveReading(
            config: config, origins: origins, sources: sources, schema: schema, registry: registry,
            environment: environment, settings: settings)
        var effective: [EffectiveSetting] = []
        for key in schema.keys { effective.append(try reading.setting(key)) }
        return (settings, effective)
    }

    /// What a comma-separated list's entries are trimmed of: tabs and Unicode's space separators,
    /// Foundation's `CharacterSet.whitespaces` (whose `trimmingCharacters` goes through `NSString`,
    /// 0.3 ms of every command's settings), not line breaks.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// A secret's value: straight from the environment, never a file, a flag or a default. An
    /// empty variable counts as unset, as `BackendSetting.secret` reads it (and libpq an empty
    /// `PGPASSWORD`), so `ACCOUNTS_POSTGRES_PASSWORD=` in a unit means "read the password file",
    /// and `accounts config` lists it as `(none)`, not as set.
    static func secret(_ key: SettingKey, _ environment: [String: String]) -> String? {
        environment[key.environmentName].flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func serverSettings(
        _ config: ConfigReader, _ origins: PathOrigins, _ locations: XDGLocations
    ) throws(AccountError) -> ServerSettings {
        let certificateKey = GlobalSettings.tlsCertificate.key
        let privateKey = GlobalSettings.tlsKey.key
        let certificate = try origins.resolve(certificateKey)
        let key = try origins.resolve(privateKey)
        if (certificate == nil) != (key == nil) {
            throw .configInvalid(
                key: certificate == nil ? certificateKey.name : privateKey.name,
                reason: "HTTPS needs both \(certificateKey.name) and \(privateKey.name)")
        }
        func read<Value>(_ setting: GlobalSetting<Value>) throws(AccountError) -> Value {
            try value(of: setting, config)
        }
        /// A comma-separated list whose entries `problem` checks: an address or origin written so
        /// that it could match nothing (a host name among proxies, `https://app.example.com/`
        /// among origins, which are compared as text) is refused, saying why, rather than
        /// silently ignored.
        func checkedList(_ setting: GlobalSetting<String>, _ problem: (String) -> String?) throws(AccountError)
            -> [String]
        {
            let entries = try read(setting).split(separator: ",").map { $0.trimming(isSpace) }.filter { !$0.isEmpty }
            if let reason = entries.lazy.compactMap(problem).first {
                throw .configInvalid(key: setting.key.name, reason: reason)
            }
            return entries
        }
        return ServerSettings(
            host: try read(GlobalSettings.host),
            port: try read(GlobalSettings.port),
            maxBodyBytes: try read(GlobalSettings.maxBodyBytes),
            idleTimeoutSeconds: try read(GlobalSettings.idleTimeoutSeconds),
            requestTimeoutSeconds: try read(GlobalSettings.requestTimeoutSeconds),
            trustedProxies: try checkedList(GlobalSettings.trustedProxies, IPAddressRange.problem),
            monitoringClients: try checkedList(GlobalSettings.monitoringClients, IPAddressRange.problem),
            corsOrigins: try checkedList(GlobalSettings.corsOrigins, WebOrigin.problem),
            signUpsPerMinute: try read(GlobalSettings.signUpsPerMinute),
            loginsPerMinute: try read(GlobalSettings.loginsPerMinute),
            passwordChecksPerMinute: try read(GlobalSettings.passwordChecksPerMinute),
            clientIPv6PrefixLength: try read(GlobalSettings.clientIPv6PrefixLength),
            hashingConcurrency: try read(GlobalSettings.hashingConcurrency),
            hashingQueue: try read(GlobalSettings.hashingQueue),
            healthMinFreeMiB: try read(GlobalSettings.healthMinFreeMiB),
            webPages: try read(GlobalSettings.webPages),
            secureCookies: try read(GlobalSettings.secureCookies),
            secretFile: try origins.resolve(GlobalSettings.secretFile.key) ?? locations.stateDirectory
                + "/server-secret",
            tlsCertificatePath: certificate, tlsKeyPath: key,
            hstsMaxAgeSeconds: try read(GlobalSettings.hstsMaxAgeSeconds))
    }

    /// One backend's section: every option (defaults filled in) and where its store is.
    private static func section(
        _ descriptor: any BackendDescriptor, _ config: ConfigReader, _ origins: PathOrigins,
        _ environment: [String: String], _ schema: SettingsSchema, _ locations: XDGLocations
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

    /// A global setting's value, as its declaration types it.
    static func value<Value>(of setting: GlobalSetting<Value>, _ config: ConfigReader) throws(AccountError) -> Value {
        let key = setting.key
        return try setting.setting.value(in: [setting.setting.name: try optionValue(config, key)])
    }

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
        let siblings = schema.keys.filter { $0.name.hasPrefix(section + ".") }.map(\.name)
        return .configInvalid(
            key: key,
            reason:
                "unknown key in \(file); known here: \(siblings.isEmpty ? "backend" : siblings.joined(separator: ", "))"
        )
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
