import Synchronization

/// How many mails each email address was sent lately, in this process: a request past
/// ``RecoveryPolicy/requestsPerWindow`` in ``RecoveryPolicy/requestWindowSeconds`` is
/// `tooManyAttempts`, for an address no account holds exactly as for one an account holds.
public final class MailRequestLimiter: Sendable {
    private struct State {
        var recent: [String: [Timestamp]] = [:]
        var callsSinceSweep = 0
    }

    private let policy: RecoveryPolicy
    private let state = Mutex(State())

    public init(policy: RecoveryPolicy) {
        self.policy = policy
    }

    /// Counts a request for `email` at `now`.
    /// - Throws: `tooManyAttempts` with the seconds until the oldest request leaves the window.
    func admit(_ email: String, at now: Timestamp) throws(AccountError) {
        let window = policy.requestWindowSeconds
        try state.withLock { (state) throws(AccountError) in
            state.callsSinceSweep += 1
            if state.callsSinceSweep >= 1_000 {
                // Forget the addresses whose requests all left the window, so memory stays
                // bounded by the addresses asked for lately.
                state.recent = state.recent.filter { $0.value.contains { $0.secondsUntil(now) < window } }
                state.callsSinceSweep = 0
            }
            var times = (state.recent[email] ?? []).filter { $0.secondsUntil(now) < window }
            if times.count >= policy.requestsPerWindow, let oldest = times.first {
                state.recent[email] = times
                throw .tooManyAttempts(retryAfterSeconds: max(1, window - oldest.secondsUntil(now)))
            }
            times.append(now)
            state.recent[email] = times
        }
    }
}
