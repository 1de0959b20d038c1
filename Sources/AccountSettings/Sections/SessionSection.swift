import AccountBackendKit
import AccountCore
import AccountServerSettings

/// `session.…`: where the CLI keeps its sessions, and how long sessions last
/// (``SessionPolicy``, whose defaults are these keys').
enum SessionSection {
    static let file = BackendSetting.path(
        "file", summary: "where the CLI keeps its signed-in sessions, one per store (mode 0600)")

    static let signingKeyFile = BackendSetting.path(
        "signing_key_file",
        summary:
            "the keys that sign access tokens (access_tokens: jwt), made on first use (default: in the state folder)")

    /// The session file (`nil`: the default in the state folder), the policy, and the access
    /// tokens.
    static func read(
        _ reader: SectionReader
    ) throws(AccountError) -> (file: String?, policy: SessionPolicy, accessTokens: AccessTokenSettings) {
        let defaults = SessionPolicy()
        let file = try reader.path(Self.file)
        let idleMinutes = try reader.value(
            .integer(
                "idle_timeout_minutes", in: 1...525_600, default: Int(defaults.idleTimeoutSeconds / 60),
                summary: "an unused session expires after this many minutes"))
        let absoluteHours = try reader.value(
            .integer(
                "absolute_timeout_hours", in: 1...8_760, default: Int(defaults.absoluteTimeoutSeconds / 3_600),
                summary: "a session expires this many hours after login, however active"))
        let rememberIdleDays = try reader.value(
            .integer(
                "remember_idle_timeout_days", in: 1...3_650,
                default: Int(defaults.rememberIdleTimeoutSeconds / 86_400),
                summary: "idle timeout of a \"remember me\" session, in days"))
        let rememberAbsoluteDays = try reader.value(
            .integer(
                "remember_absolute_timeout_days", in: 1...3_650,
                default: Int(defaults.rememberAbsoluteTimeoutSeconds / 86_400),
                summary: "absolute lifetime of a \"remember me\" session, in days"))
        let grace = try reader.value(
            .integer(
                "refresh_reuse_grace_seconds", in: 0...300, default: Int(defaults.refreshReuseGraceSeconds),
                summary:
                    "a replaced token presented again within this many seconds is refused; later, it signs out every session of its line"
            ))
        let tokenDefaults = AccessTokenSettings()
        let accessTokens = AccessTokenSettings(
            kind: try reader.value(
                BackendSetting<AccessTokenSettings.Kind>.choice(
                    "access_tokens", default: tokenDefaults.kind,
                    summary:
                        "opaque (the session token, checked against the store) or jwt (short-lived ES256 tokens others check against /.well-known/jwks.json)"
                )),
            keyFile: try reader.path(Self.signingKeyFile) ?? reader.locations.stateDirectory + "/signing-keys.json",
            audience: try reader.value(
                .text(
                    "access_token_audience", default: tokenDefaults.audience, summary: "the aud claim of access tokens")
            ))
        let lifetime = try reader.value(
            .integer(
                "access_token_lifetime_seconds", in: 10...86_400, default: Int(defaults.accessTokenLifetimeSeconds),
                summary: "how long an access token (access_tokens: jwt) is good for, even after a logout"))
        return (
            file,
            SessionPolicy(
                idleTimeoutSeconds: Int64(idleMinutes) * 60, absoluteTimeoutSeconds: Int64(absoluteHours) * 3_600,
                rememberIdleTimeoutSeconds: Int64(rememberIdleDays) * 86_400,
                rememberAbsoluteTimeoutSeconds: Int64(rememberAbsoluteDays) * 86_400,
                refreshReuseGraceSeconds: Int64(grace), accessTokenLifetimeSeconds: Int64(lifetime)),
            accessTokens
        )
    }
}
