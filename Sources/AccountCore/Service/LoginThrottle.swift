import Synchronization

/// The failed-login throttle of one server process, under a ``LoginThrottlePolicy``.
///
/// It is keyed by the normalized email, registered or not, so an unknown email is throttled
/// exactly as a registered one. Its state is in memory: several servers on one store each
/// throttle on their own (the security article gives the figures), and a restart forgets.
/// Entries idle for a day are dropped once the throttle holds many, so an attacker who tries
/// random emails grows it only as fast as the per-client limits let them try.
public final class LoginThrottle: Sendable {
    /// What it enforces.
    public let policy: LoginThrottlePolicy

    private struct Backoff {
        var failures: Int
        var lastFailure: Timestamp
    }

    /// Unknown-device failures of one account, draining at the policy's rate.
    private struct Ceiling {
        var level: Double
        var updatedMs: Int64
    }

    private struct State {
        var backoffs: [String: Backoff] = [:]
        var ceilings: [String: Ceiling] = [:]
        var lastSweep = Timestamp(millisecondsSince1970: 0)
    }

    /// Past this many entries, idle ones are dropped (at most once a minute, so an attack
    /// does not make every failure walk them all).
    static let sweepThreshold = 100_000
    /// A failure this old no longer counts (or the longest wait, when that is longer).
    static let idleSeconds: Int64 = 86_400

    private let state = Mutex(State())

    /// A throttle that enforces `policy`.
    public init(policy: LoginThrottlePolicy = LoginThrottlePolicy()) {
        self.policy = policy
    }

    /// Starts a try of `email` from `origin` at `now`, counted as a failure until it settles
    /// otherwise (``LoginAttempt``). Counting at the start means tries sent all at once are
    /// throttled as if one after the other. A known device's failures count against it alone;
    /// an unknown one's against its client and the account's ceiling.
    /// - Throws: `tooManyAttempts` with how long `origin` must wait first (nothing is counted).
    public func attempt(email: String, from origin: LoginOrigin, at now: Timestamp) throws(AccountError)
        -> LoginAttempt
    {
        if let seconds = begin(email: email, from: origin, at: now) {
            throw .tooManyAttempts(retryAfterSeconds: seconds)
        }
        return LoginAttempt(throttle: self, email: email, origin: origin)
    }

    /// How long `origin` must wait to try `email`, or `nil` and the try is counted.
    func begin(email: String, from origin: LoginOrigin, at now: Timestamp) -> Int64? {
        state.withLock { state -> Int64? in
            let key = Self.backoffKey(email, origin)
            var seconds: Int64 = 0
            if let backoff = state.backoffs[key],
                let until = policy.backoff.lockedUntil(failures: backoff.failures, lastFailure: backoff.lastFailure)
            {
                seconds = now.secondsUntil(until)
            }
            let level = origin.device == nil ? state.ceilings[email].map { drained($0, at: now) } ?? 0 : 0
            let over = level - Double(policy.accountCeiling - 1)
            if origin.device == nil, over > 0 {
                seconds = max(seconds, Int64((over * Double(policy.ceilingDrainSeconds)).rounded(.up)))
            }
            guard seconds == 0 else { return seconds }
            if state.backoffs.count + state.ceilings.count > Self.sweepThreshold,
                state.lastSweep.secondsUntil(now) >= 60
            {
                sweep(&state, now: now)
            }
            state.backoffs[key] = Backoff(failures: (state.backoffs[key]?.failures ?? 0) + 1, lastFailure: now)
            if origin.device == nil {
                state.ceilings[email] = Ceiling(level: level + 1, updatedMs: now.millisecondsSince1970)
            }
            return nil
        }
    }

    /// The try of `email` from `origin` matched: its device or client starts afresh, and
    /// the try leaves the account's ceiling (which otherwise drains only with time, so one
    /// success does not let strangers start afresh).
    func succeeded(email: String, from origin: LoginOrigin) {
        state.withLock { state in
            state.backoffs.removeValue(forKey: Self.backoffKey(email, origin))
            if origin.device == nil, var ceiling = state.ceilings[email] {
                ceiling.level = max(0, ceiling.level - 1)
                state.ceilings[email] = ceiling
            }
        }
    }

    /// The try of `email` from `origin` ended without an answer on the password (the store
    /// or the hashing queue failed): it no longer counts.
    func abandoned(email: String, from origin: LoginOrigin) {
        state.withLock { state in
            let key = Self.backoffKey(email, origin)
            if var backoff = state.backoffs[key] {
                backoff.failures -= 1
                state.backoffs[key] = backoff.failures > 0 ? backoff : nil
            }
            if origin.device == nil, var ceiling = state.ceilings[email] {
                ceiling.level = max(0, ceiling.level - 1)
                state.ceilings[email] = ceiling
            }
        }
    }

    private func drained(_ ceiling: Ceiling, at now: Timestamp) -> Double {
        let elapsedSeconds = Double(max(0, now.millisecondsSince1970 - ceiling.updatedMs)) / 1_000
        return max(0, ceiling.level - elapsedSeconds / Double(policy.ceilingDrainSeconds))
    }

    private func sweep(_ state: inout State, now: Timestamp) {
        state.lastSweep = now
        let cutoff = now.adding(seconds: -max(Self.idleSeconds, policy.backoff.maximumDelaySeconds))
        state.backoffs = state.backoffs.filter { $0.value.lastFailure > cutoff }
        state.ceilings = state.ceilings.filter { drained($0.value, at: now) > 0 }
    }

    /// A known device's own entry, or an unknown client's: the two never share one.
    private static func backoffKey(_ email: String, _ origin: LoginOrigin) -> String {
        if let device = origin.device { return "device\u{0}\(device)\u{0}\(email)" }
        return "client\u{0}\(origin.client)\u{0}\(email)"
    }
}
