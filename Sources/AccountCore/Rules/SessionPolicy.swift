/// How long sessions live.
public struct SessionPolicy: Sendable, Hashable {
    /// Idle timeout of an ordinary session.
    public var idleTimeoutSeconds: Int64
    /// Absolute lifetime of an ordinary session.
    public var absoluteTimeoutSeconds: Int64
    /// Idle timeout with "remember me".
    public var rememberIdleTimeoutSeconds: Int64
    /// Absolute lifetime with "remember me".
    public var rememberAbsoluteTimeoutSeconds: Int64
    /// How long after a refresh its old token may still be presented as a retry (two tabs, a
    /// lost answer): within it the replay is refused and nothing else happens; after it the
    /// replay revokes every session of the family, since the old token was stolen or the new
    /// one was (RFC 9700 §4.14.2).
    public var refreshReuseGraceSeconds: Int64
    /// How long a signed access token is good for (`session.access_tokens: jwt`): a service
    /// that checks it against the published keys alone accepts it this long after a logout.
    public var accessTokenLifetimeSeconds: Int64

    /// Creates a policy. Defaults: 1 hour idle / 12 hours absolute; remembered 30 / 90 days; a
    /// replaced token's grace 10 seconds; access tokens 10 minutes.
    public init(
        idleTimeoutSeconds: Int64 = 3_600,
        absoluteTimeoutSeconds: Int64 = 12 * 3_600,
        rememberIdleTimeoutSeconds: Int64 = 30 * 86_400,
        rememberAbsoluteTimeoutSeconds: Int64 = 90 * 86_400,
        refreshReuseGraceSeconds: Int64 = 10,
        accessTokenLifetimeSeconds: Int64 = 600
    ) {
        self.refreshReuseGraceSeconds = refreshReuseGraceSeconds
        self.accessTokenLifetimeSeconds = accessTokenLifetimeSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.absoluteTimeoutSeconds = absoluteTimeoutSeconds
        self.rememberIdleTimeoutSeconds = rememberIdleTimeoutSeconds
        self.rememberAbsoluteTimeoutSeconds = rememberAbsoluteTimeoutSeconds
    }
}
