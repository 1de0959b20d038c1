/// The `session.access_tokens` settings: whether the HTTP fronts hand out signed access tokens
/// (JWTs other services check against the published key set) beside the opaque session token,
/// and with which keys.
public struct AccessTokenSettings: Sendable, Equatable {
    /// What a sign-up, login or refresh gives the client to send with its requests.
    public enum Kind: String, Sendable, CaseIterable {
        /// The session's own token (64 hex digits), checked against the store on every request.
        case opaque
        /// A short-lived JWT signed ES256; the session's token is then the refresh token only.
        case jwt
    }

    /// Opaque (the default) or JWT.
    public var kind: Kind
    /// The file of signing keys (mode 0600, made at the first start; in the state folder by
    /// default).
    public var keyFile: String
    /// `aud` of every token: what a service that accepts them checks for.
    public var audience: String

    /// Settings of the given kind.
    public init(kind: Kind = .opaque, keyFile: String = "signing-keys.json", audience: String = "accounts") {
        self.kind = kind
        self.keyFile = keyFile
        self.audience = audience
    }
}
