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

    /// Creates a policy. Defaults: 1 hour idle / 12 hours absolute; remembered 30 / 90 days.
    public init(
        idleTimeoutSeconds: Int64 = 3_600,
        absoluteTimeoutSeconds: Int64 = 12 * 3_600,
        rememberIdleTimeoutSeconds: Int64 = 30 * 86_400,
        rememberAbsoluteTimeoutSeconds: Int64 = 90 * 86_400
    ) {
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.absoluteTimeoutSeconds = absoluteTimeoutSeconds
        self.rememberIdleTimeoutSeconds = rememberIdleTimeoutSeconds
        self.rememberAbsoluteTimeoutSeconds = rememberAbsoluteTimeoutSeconds
    }
}
