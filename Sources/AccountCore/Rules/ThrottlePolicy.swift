/// A doubling wait after repeated failures of one device or client on one account.
///
/// After `freeAttempts` consecutive failures, each further attempt must wait
/// `baseDelaySeconds × 2^(failures − freeAttempts)` seconds after the last failure, capped at
/// `maximumDelaySeconds`. A successful login resets the count. ``LoginThrottlePolicy`` says
/// whose failures count.
public struct ThrottlePolicy: Sendable, Hashable {
    /// Consecutive failures allowed before any delay.
    public var freeAttempts: Int
    /// The first delay.
    public var baseDelaySeconds: Int64
    /// The longest delay.
    public var maximumDelaySeconds: Int64

    /// Creates a policy. Defaults: 5 free attempts, then 1 s doubling up to 15 minutes.
    public init(freeAttempts: Int = 5, baseDelaySeconds: Int64 = 1, maximumDelaySeconds: Int64 = 900) {
        self.freeAttempts = freeAttempts
        self.baseDelaySeconds = baseDelaySeconds
        self.maximumDelaySeconds = maximumDelaySeconds
    }

    /// Until when a device or client with `failures` consecutive failures, the last at
    /// `lastFailure`, must wait; `nil` when it need not.
    public func lockedUntil(failures: Int, lastFailure: Timestamp?) -> Timestamp? {
        guard failures >= freeAttempts, let lastFailure else { return nil }
        let exponent = min(failures - freeAttempts, 40)
        let delay = min(
            maximumDelaySeconds,
            baseDelaySeconds.multipliedReportingOverflow(by: 1 << exponent).overflow
                ? maximumDelaySeconds : baseDelaySeconds << exponent)
        return lastFailure.adding(seconds: delay)
    }
}
