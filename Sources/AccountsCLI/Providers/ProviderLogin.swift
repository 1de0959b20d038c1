#if Server
    import AccountCore
    import AccountCrypto
    import AccountProviders
    import AccountServerSettings
    import AccountSettings
    import Foundation

    /// `accounts login --provider NAME`: the CLI as a native app (RFC 8252). It prints the
    /// provider's address for a browser, takes the provider's answer on a loopback port, trades
    /// the code itself (PKCE S256, a nonce, the state checked), and signs in to the store as the
    /// server's callback would.
    enum ProviderLogin {
        /// The profile the provider `name` gives for the person who signs in in the browser.
        /// - Throws: `configInvalid` for a provider that is not configured; the provider's
        ///   errors; `providerFlowInvalid` for an answer with another state or none in time.
        static func profile(named name: String, context: CommandContext) async throws -> ProviderProfile {
            let settings = context.settings
            guard let configured = settings.providers.first(where: { $0.name == name }) else {
                let known = settings.providers.map(\.name)
                throw AccountError.configInvalid(
                    key: "--provider",
                    reason: known.isEmpty
                        ? "no provider is configured (providers.NAME)"
                        : "no provider \(name); configured: \(known.joined(separator: ", "))")
            }
            let messages = context.messages
            return try await SignInProviders.with([configured], publicURL: settings.server.publicURL) { providers in
                guard let provider = providers.byName[name] else { throw AccountError.notSignedIn }
                // The flow lives in this process only: its key too.
                let key = HMACKey.random()
                let flow = ProviderFlow(
                    provider: name, purpose: .signIn, remember: false, at: SystemClock().now(),
                    random: SodiumRandomSource())
                let (query, redirectURI) = try await LoopbackCallback.receive(
                    page: messages.providerReturnPage, timeout: .seconds(ProviderFlow.lifetimeSeconds)
                ) { callback in
                    let url = try await provider.authorizationURL(
                        state: flow.state, codeChallenge: flow.codeChallenge(key: key), nonce: flow.nonce(key: key),
                        redirectURI: callback)
                    FileHandle.standardError.write(
                        Data((messages.openToSignIn(configured.displayName, url) + "\n").utf8))
                }
                guard query["state"] == flow.state else {
                    throw AccountError.providerFlowInvalid(reason: "the state is not the one this sign-in sent")
                }
                if let error = query["error"] {
                    throw AccountError.providerFlowInvalid(
                        reason: "the provider answered \(OAuthErrorCode.shown(error))")
                }
                guard let code = query["code"] else {
                    throw AccountError.providerFlowInvalid(reason: "the provider sent no code")
                }
                return try await provider.profile(
                    code: code, codeVerifier: flow.codeVerifier(key: key), nonce: flow.nonce(key: key),
                    redirectURI: redirectURI)
            }
        }
    }
#endif
