package import AccountCore
import AccountServerSettings
import Synchronization

/// Per-client limits on the expensive actions: `limit` tries per action and client per
/// minute, as a token bucket of `limit` tokens refilled evenly over a minute. A client may use
/// the whole bucket at once, then gets one try every `60 / limit` seconds: there is no window
/// edge to straddle for twice the limit. An IPv6 client is its /64 (configurable), since its
/// owner can use any of those addresses. The accounts' login throttle (`LoginThrottle`) still
/// applies; this one stops one client from trying many accounts.
///
/// A bucket that has filled up again is the same as none, so such buckets are dropped once a
/// minute: memory is bounded by the clients of the last minute or two.
package final class ClientRateLimiter: Sendable {
    /// The actions limited separately.
    package enum Action: String, Sendable {
        case signUp, login, passwordCheck
    }

    private struct Bucket {
        var tokens: Double
        var updatedMs: Int64
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        var lastSweepMs: Int64 = 0
    }

    private let limits: [Action: Int]
    private let ipv6PrefixLength: Int
    private let clock: any AccountClock
    private let state = Mutex(State())

    init(limits: [Action: Int], ipv6PrefixLength: Int, clock: any AccountClock) {
        self.limits = limits
        self.ipv6PrefixLength = ipv6PrefixLength
        self.clock = clock
    }

    /// Takes one try of `action` by `client` from its bucket.
    /// - Throws: `ClientLimitExceeded` with the seconds until the bucket holds a try again.
    func admit(_ action: Action, client: String) throws(ClientLimitExceeded) {
        guard let limit = limits[action], limit > 0 else { return }
        let now = clock.now().millisecondsSince1970
        let perMs = Double(limit) / 60_000
        let key = action.rawValue + " " + IPAddressRange.clientKey(client, ipv6PrefixLength: ipv6PrefixLength)
        let waitMs = state.withLock { state -> Double? in
            if now - state.lastSweepMs >= 60_000 {
                sweep(&state, now: now)
                state.lastSweepMs = now
            }
            var bucket = state.buckets[key] ?? Bucket(tokens: Double(limit), updatedMs: now)
            bucket.tokens = min(Double(limit), bucket.tokens + Double(max(0, now - bucket.updatedMs)) * perMs)
            bucket.updatedMs = now
            defer { state.buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / perMs }
            bucket.tokens -= 1
            return nil
        }
        if let waitMs {
            throw ClientLimitExceeded(action: action, retryAfterSeconds: max(1, Int64((waitMs / 1_000).rounded(.up))))
        }
    }

    /// Drops the buckets that have filled up again: they limit nothing.
    private func sweep(_ state: inout State, now: Int64) {
        state.buckets = state.buckets.filter { key, bucket in
            let action = Action(rawValue: String(key.prefix { $0 != " " }))
            let limit = Double(action.flatMap { limits[$0] } ?? 0)
            return bucket.tokens + Double(now - bucket.updatedMs) * limit / 60_000 < limit
        }
    }
}

/// A client over its per-minute limit of one action: 429 `too_many_attempts` (the code clients
/// know), with a message that names the limit it hit, and `Retry-After`.
package struct ClientLimitExceeded: Error, Sendable {
    package let action: ClientRateLimiter.Action
    package let retryAfterSeconds: Int64

    package func message(_ language: Language) -> String {
        let seconds = retryAfterSeconds
        if language == .korean {
            let what =
                switch action {
                case .signUp: "회원가입"
                case .login: "로그인 시도"
                case .passwordCheck: "비밀번호 확인(변경·탈퇴)"
                }
            return "이 주소에서 \(what)이(가) 너무 많습니다. \(seconds)초 후에 다시 시도하세요."
        }
        let what =
            switch action {
            case .signUp: "sign-ups"
            case .login: "login attempts"
            case .passwordCheck: "password checks (changes and withdrawals)"
            }
        return "Too many \(what) from your address; try again in \(EnglishPlural.count(seconds, "second"))."
    }
}
