import AccountBackendKit
import AccountCore
import AccountServerSettings

/// `providers.NAME.…`: the outside providers users sign in with (``ProviderSettings``, whose
/// defaults are these keys'). A provider exists by having a section: its name comes from the
/// config file's keys or from the `ACCOUNTS_PROVIDERS_NAME_…` variables, and its keys are then
/// known to the schema like any other.
enum ProvidersSection {
    /// The first component of every provider's keys.
    static let prefix = "providers"
    static let environmentPrefix = "ACCOUNTS_PROVIDERS_"

    /// The section of the provider `name`.
    static func section(_ name: String) -> String { "\(prefix).\(name)" }

    /// The names of the providers the file's keys and the environment set something for, sorted.
    /// - Throws: `configInvalid` for a key directly under `providers` or a name that breaks the
    ///   rule (``ProviderSettings/isValidName(_:)``).
    static func names(fileKeys: [String], environment: [String: String]) throws(AccountError) -> [String] {
        var names: Set<String> = []
        for key in fileKeys where key == prefix || key.hasPrefix(prefix + ".") {
            let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard components.count >= 3 else {
                throw .configInvalid(
                    key: key, reason: "a provider's settings go under its name, such as providers.github.client_id")
            }
            guard ProviderSettings.isValidName(components[1]) else { throw badName(components[1], key: key) }
            names.insert(components[1])
        }
        for variable in environment.keys where variable.hasPrefix(environmentPrefix) {
            let rest = variable.dropFirst(environmentPrefix.count)
            guard let end = rest.firstIndex(of: "_"), !rest[rest.index(after: end)...].isEmpty else {
                throw .configInvalid(
                    key: variable,
                    reason: "a provider's variable names it and the key, such as ACCOUNTS_PROVIDERS_GITHUB_CLIENT_ID")
            }
            let name = rest[..<end].lowercased()
            guard ProviderSettings.isValidName(name), rest[..<end] == name.uppercased() else {
                throw badName(String(rest[..<end]), key: variable)
            }
            names.insert(name)
        }
        return names.sorted()
    }

    private static func badName(_ name: String, key: String) -> AccountError {
        .configInvalid(
            key: key,
            reason:
                "'\(name)' is not a provider name: a lowercase letter, then lowercase letters and digits, at most 32")
    }

    /// The settings of the provider `reader` reads (its section is `providers.NAME`).
    static func read(_ reader: SectionReader) throws(AccountError) -> ProviderSettings {
        let name = String(reader.section.dropFirst(prefix.count + 1))
        let defaults = ProviderSettings(name: name)
        let kind = try reader.value(
            BackendSetting<ProviderSettings.Kind>.choice(
                "type", default: defaults.kind,
                summary:
                    "github (GitHub's OAuth app) or oidc (OpenID Connect, found from the issuer); github for the section named github"
            ))
        var provider = ProviderSettings(name: name, kind: kind)
        provider.displayName = try reader.value(
            .text("display_name", default: defaults.displayName, summary: "what the button says after \"Sign in with\"")
        )
        let issuer = BackendSetting.text(
            "issuer", default: "", summary: "the OpenID Connect issuer (https; http only on loopback)")
        provider.issuer = try reader.value(issuer)
        let clientID = BackendSetting.text("client_id", default: "", summary: "the client id the provider gave")
        provider.clientID = try reader.value(clientID)
        let secretFile = BackendSetting.path(
            "client_secret_file", summary: "a file whose first line is the client secret (required for github)")
        provider.clientSecretFile = try reader.path(secretFile)
        let scopes = try reader.value(
            .text(
                "scopes", default: "",
                summary: "the scopes asked for, space-separated (empty: read:user user:email, or openid email profile)")
        )
        if !scopes.isEmpty { provider.scopes = scopes }
        let webURL = BackendSetting.text(
            "web_url", default: defaults.webURL,
            summary: "GitHub's web address (GitHub Enterprise Server's, or a stand-in)")
        provider.webURL = try reader.value(webURL)
        let apiURL = BackendSetting.text("api_url", default: defaults.apiURL, summary: "GitHub's API address")
        provider.apiURL = try reader.value(apiURL)
        let appRedirect = BackendSetting.text(
            "app_redirect_url", default: "",
            summary:
                "where a Strapi app's /api/connect/NAME sign-in ends, with ?access_token= (empty: not offered to Strapi apps)"
        )
        provider.appRedirectURL = try reader.value(appRedirect)
        guard case .layered = reader.source else { return provider }

        if !provider.appRedirectURL.isEmpty, let problem = ProviderSettings.appRedirectProblem(provider.appRedirectURL)
        {
            throw .configInvalid(key: reader.key(appRedirect).name, reason: problem)
        }
        if provider.clientID.isEmpty {
            throw .configInvalid(key: reader.key(clientID).name, reason: "a provider needs the client id it gave")
        }
        switch provider.kind {
        case .oidc:
            if provider.issuer.isEmpty {
                throw .configInvalid(
                    key: reader.key(issuer).name,
                    reason: "an OpenID Connect provider needs its issuer (or type: github for GitHub)")
            }
            if let problem = ProviderSettings.addressProblem(provider.issuer) {
                throw .configInvalid(key: reader.key(issuer).name, reason: problem)
            }
        case .github:
            if provider.clientSecretFile == nil {
                throw .configInvalid(key: reader.key(secretFile).name, reason: "GitHub needs the client secret")
            }
            for (setting, value) in [(webURL, provider.webURL), (apiURL, provider.apiURL)] {
                if let problem = ProviderSettings.addressProblem(value) {
                    throw .configInvalid(key: reader.key(setting).name, reason: problem)
                }
            }
        }
        return provider
    }
}
