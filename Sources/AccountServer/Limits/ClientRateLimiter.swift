import AccountCore
import Synchronization

/// Per-client limits on the expensive actions: at most `limit` tries per action and client in
/// each minute of the injected clock. The accounts' own throttle (in the store, shared by every
/// host) still applies; this one stops one client from trying many accounts.
///
/// Only the current minute's counts are kept, so memory is bounded by the clients of one minute.
package final class ClientRateLimiter: Sendable {
    /// The actions limited separately.
    package enum Action: String, Sendable {
        case signUp, login, passwordCheck
    }

    private struct Window {
        var minute: Int64 = 0
        var counts: [String: Int] = [:]
    }

    private let limits: [Action: Int]
    private let clock: any AccountClock
    private let window = Mutex(Window())

    init(limits: [Action: Int], clock: any AccountClock) {
        self.limits = limits
        self.clock = clock
    }

    /// Counts one try of `action` by `client`.
    /// - Throws: `tooManyAttempts` with the seconds until the next minute when over the limit.
    func admit(_ action: Action, client: String) throws(AccountError) {
        guard let limit = limits[action] else { return }
        let now = clock.now().millisecondsSince1970
        let minute = now / 60_000
        let admitted = window.withLock { window -> Bool in
            if window.minute != minute { window = Window(minute: minute) }
            let key = action.rawValue + " " + client
            let count = window.counts[key, default: 0]
            guard count < limit else { return false }
            window.counts[key] = count + 1
            return true
        }
        guard admitted else {
            let retryAfter = max(1, ((minute + 1) * 60_000 - now + 999) / 1_000)
            throw .tooManyAttempts(retryAfterSeconds: retryAfter)
        }
    }
}
