import AccountBackendKit
import AccountCore
import AccountServerSettings
import Configuration
import Foundation

/// Reads each key back from the layered sources `SettingsLoader` built, for
/// ``SettingsLoader/loadDescribed(overrides:environment:workingDirectory:registry:)``.
struct EffectiveReading {
    let config: ConfigReader
    let origins: PathOrigins
    let sources: SettingSources
    let schema: SettingsSchema
    let registry: BackendRegistry
    let environment: [String: String]
    /// The settings already resolved: where the default store and session paths lead.
    let settings: AccountSettings

    func setting(_ key: SettingKey) throws(AccountError) -> EffectiveSetting {
        let section = key.components.count > 1 && schema.backendNames.contains(key.components[0])
        return EffectiveSetting(
            key: key.name, value: try value(of: key), source: sources.source(of: key),
            environmentName: key.environmentName, expects: key.expectation,
            defaultValue: key.defaultValue?.description,
            summary: key.summary, backend: section ? key.components[0] : nil, isSecret: key.kind == .secret)
    }

    private func value(of key: SettingKey) throws(AccountError) -> EffectiveSetting.Value {
        switch key.kind {
        case .integer: return .integer(try SettingsLoader.integer(config, key))
        case .boolean: return .boolean(try SettingsLoader.boolean(config, key))
        case .choice, .text:
            let text = try SettingsLoader.string(config, key)
            return text.isEmpty ? .none : .text(Self.withoutURLPassword(text))
        case .secret:
            return SettingsLoader.secret(key, environment) == nil ? .none : .hidden
        case .path:
            if let path = try origins.resolve(key) { return .text(path) }
            return defaultPath(of: key).map(EffectiveSetting.Value.text) ?? .none
        }
    }

    /// Where an unset store, session, server-secret or signing-key path leads: the XDG locations the loader
    /// filled in, so `accounts config` shows the file in use, not "(none)".
    private func defaultPath(of key: SettingKey) -> String? {
        if key.name == GlobalSections.sessionFileKey.name { return settings.sessionFile }
        if key.name == GlobalSections.secretFileKey.name { return settings.server.secretFile }
        if key.name == GlobalSections.signingKeyFileKey.name { return settings.accessTokens.keyFile }
        guard let descriptor = try? registry.descriptor(named: key.components[0]), descriptor.storesInFiles,
            key.name == SettingsSchema.storeKeyName(of: descriptor)
        else { return nil }
        return settings.sections[descriptor.name]?.location
    }

    /// `text` with the passwords of a URL in it masked: the user's (`postgres://ann:***@db/x`)
    /// and a `password=` parameter's (`?password=***`). The PostgreSQL backend refuses both when
    /// it connects, but a listing must not show them before that, and a backend another package
    /// adds is not bound to refuse them at all.
    static func withoutURLPassword(_ text: String) -> String {
        var masked = text
        guard let scheme = masked.range(of: "://") else { return text }
        let authority = masked[scheme.upperBound...].prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            masked.replaceSubrange(masked.index(after: colon)..<at, with: "***")
        }
        var result = ""
        var rest = masked[...]
        while let name = rest.range(of: "password=", options: .caseInsensitive) {
            result += rest[..<name.upperBound] + "***"
            rest = rest[name.upperBound...].drop { !"&#".contains($0) }
        }
        return result + rest
    }
}
