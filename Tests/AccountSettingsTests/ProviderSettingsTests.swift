import AccountCore
import AccountServerSettings
import AccountSettings
import Testing

/// `providers.NAME.…`: a provider exists by having a section, in the file or the environment,
/// and every mistake in one is named before anything starts.
@Suite("Provider settings")
struct ProviderSettingsTests {
    typealias Sandbox = SettingsLoaderTests.Sandbox

    @Test("sections from the file and the environment, with each kind's defaults")
    func sections() async throws {
        let box = try Sandbox()
        _ = try box.write("x\n", to: "github-secret")
        let config = try box.write(
            """
            server:
              public_url: https://accounts.example.com
            providers:
              corp:
                issuer: https://idp.example.com
                client_id: accounts
                display_name: Corp SSO
            """, to: "config.yaml")
        let settings = try await box.load(
            .init(configFile: config),
            environment: [
                "ACCOUNTS_PROVIDERS_GITHUB_CLIENT_ID": "Iv1.abc",
                "ACCOUNTS_PROVIDERS_GITHUB_CLIENT_SECRET_FILE": box.root + "/github-secret",
            ])
        #expect(settings.providers.map(\.name) == ["corp", "github"])
        let corp = settings.providers[0]
        #expect(corp.kind == .oidc && corp.issuer == "https://idp.example.com" && corp.displayName == "Corp SSO")
        #expect(corp.scopes == "openid email profile" && corp.clientSecretFile == nil)
        let github = settings.providers[1]
        #expect(github.kind == .github && github.scopes == "read:user user:email" && github.displayName == "GitHub")
        #expect(github.clientSecretFile == box.root + "/github-secret" && github.apiURL == "https://api.github.com")
        #expect(try await box.load().providers.isEmpty, "none unless configured")
    }

    @Test(
        "a mistake in a provider's section is config_invalid naming it",
        arguments: [
            (
                [
                    "ACCOUNTS_PROVIDERS_CORP_CLIENT_ID": "x",
                    "ACCOUNTS_PROVIDERS_CORP_ISSUER": "https://idp.example.com",
                ], "public_url"
            ),
            (["ACCOUNTS_PROVIDERS_Corp_CLIENT_ID": "x"], "not a provider name"),
            (["ACCOUNTS_PROVIDERS_CORP": "x"], "names it and the key"),
            (["ACCOUNTS_PROVIDERS_CORP_ISUER": "https://idp.example.com"], "unknown environment setting"),
            (["ACCOUNTS_PROVIDERS_CORP_ISSUER": "https://idp.example.com"], "client id"),
            (
                ["ACCOUNTS_PROVIDERS_CORP_CLIENT_ID": "x", "ACCOUNTS_PROVIDERS_CORP_ISSUER": "http://idp.example.com"],
                "loopback"
            ),
            (["ACCOUNTS_PROVIDERS_CORP_CLIENT_ID": "x", "ACCOUNTS_PROVIDERS_CORP_ISSUER": "idp.example.com"], "https"),
            (["ACCOUNTS_PROVIDERS_GITHUB_CLIENT_ID": "x"], "client secret"),
            (["ACCOUNTS_PROVIDERS_CORP_CLIENT_ID": "x", "ACCOUNTS_PROVIDERS_CORP_TYPE": "saml"], "github"),
        ] as [([String: String], String)])
    func mistakes(environment: [String: String], mentioning: String) async throws {
        let box = try Sandbox()
        let publicURL = mentioning == "public_url" ? [:] : ["ACCOUNTS_SERVER_PUBLIC_URL": "https://a.example.com"]
        await SettingsLoaderTests().expectConfigError("config_invalid", mentioning: mentioning) {
            try await box.load(environment: environment.merging(publicURL) { $1 })
        }
    }

    @Test("a key directly under providers, or under a provider a key it does not have, is named")
    func fileMistakes() async throws {
        let box = try Sandbox()
        for (text, mentioning) in [
            ("providers:\n  client_id: x\n", "under its name"),
            ("providers:\n  corp:\n    isuer: https://idp.example.com\n", "providers.corp.issuer"),
            ("providers:\n  Corp:\n    client_id: x\n", "not a provider name"),
        ] {
            let config = try box.write(text, to: "config.yaml")
            await SettingsLoaderTests().expectConfigError("config_invalid", mentioning: mentioning) {
                try await box.load(.init(configFile: config))
            }
        }
    }

    @Test("loopback http is allowed for a provider; https anywhere")
    func addresses() {
        #expect(ProviderSettings.addressProblem("http://127.0.0.1:8000/o") == nil)
        #expect(ProviderSettings.addressProblem("https://idp.example.com/realms/x") == nil)
        #expect(ProviderSettings.addressProblem("http://idp.example.com") != nil)
        #expect(ProviderSettings.addressProblem("ftp://idp.example.com") != nil)
        #expect(ProviderSettings.addressProblem("https://user@idp.example.com") != nil)
    }
}
