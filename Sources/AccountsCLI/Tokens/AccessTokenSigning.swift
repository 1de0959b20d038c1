#if Server
    import AccountCore
    import AccountServerSettings
    import AccountSettings
    import AccountTokens

    /// The signer of the configured access tokens (`session.access_tokens`).
    enum AccessTokenSigning {
        /// The signer for `session.access_tokens: jwt`, its keys read or made; nil for opaque
        /// tokens.
        /// - Throws: `configInvalid` without `server.public_url` (every token's issuer, which
        ///   the services that check them expect to stay the same), or for a key file that
        ///   cannot be read or made.
        static func signer(_ settings: AccountSettings) async throws(AccountError) -> JWTAccessTokens? {
            guard settings.accessTokens.kind == .jwt else { return nil }
            guard !settings.server.publicURL.isEmpty else {
                throw .configInvalid(
                    key: "session.access_tokens",
                    reason: "jwt needs server.public_url: it is every token's issuer (iss), which services check")
            }
            return try await JWTAccessTokens(
                keyFile: settings.accessTokens.keyFile, issuer: settings.server.publicURL,
                audience: settings.accessTokens.audience,
                tokenLifetimeSeconds: settings.sessionPolicy.accessTokenLifetimeSeconds)
        }
    }
#endif
