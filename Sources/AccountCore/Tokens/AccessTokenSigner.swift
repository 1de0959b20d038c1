/// Signs and reads the short-lived access tokens of `session.access_tokens: jwt`: tokens that
/// another service checks against the published keys alone, without asking the store. A
/// session's opaque token is then its refresh token only.
///
/// The account flows (``SessionService``) decide what a token says and check its times with
/// their clock; a signer only signs, and reads back what one of its keys signed for its issuer
/// and audience.
public protocol AccessTokenSigner: Sendable {
    /// `claims` signed with the current key.
    func sign(_ claims: AccessTokenClaims) async throws -> String
    /// What `token` says when one of the keys still published signed it, for this issuer and
    /// audience, in the one algorithm and type this signer writes; nil for anything else.
    /// Its times are the caller's to check.
    func claims(of token: String) async -> AccessTokenClaims?
    /// The public keys a token may be checked against, as a JSON Web Key Set (RFC 7517): the
    /// current key and those retired less than a token's lifetime ago.
    func keySet() async -> String
}

/// What an access token says (its JWT claims besides issuer and audience).
public struct AccessTokenClaims: Sendable, Hashable {
    /// `sub`: the user's id.
    public var userID: UserID
    /// `number`: the user's number.
    public var number: Int
    /// `sid`: the session family's public id (``SessionService`` derives it), the same for
    /// every token of one login however often it is refreshed.
    public var sessionID: String
    /// `iat`.
    public var issuedAt: Timestamp
    /// `exp`.
    public var expiresAt: Timestamp
    /// `amr` (RFC 8176): how the user proved who they are at the login, `pwd` for a password.
    public var methods: [String]

    /// Claims of a token.
    public init(
        userID: UserID, number: Int, sessionID: String, issuedAt: Timestamp, expiresAt: Timestamp, methods: [String]
    ) {
        self.userID = userID
        self.number = number
        self.sessionID = sessionID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.methods = methods
    }
}

/// A signed access token handed out with a session.
public struct AccessToken: Sendable, Hashable {
    /// The token (a JWT). Show it to no one but its user.
    public let token: String
    /// When it stops being accepted: nothing can end it earlier for a service that checks it
    /// against the published keys alone.
    public let expiresAt: Timestamp
}
