import AccountBackendKit
import AccountCore

/// `login.…`: the failed-login throttle (``LoginThrottlePolicy``, whose defaults are these keys').
enum LoginSection {
    static func read(_ reader: SectionReader) throws(AccountError) -> LoginThrottlePolicy {
        let defaults = LoginThrottlePolicy()
        let after = try reader.value(
            .integer(
                "throttle_after", in: 1...1_000, default: defaults.backoff.freeAttempts,
                summary: "consecutive failed logins of one device or client on one account before it must wait"))
        let baseDelay = try reader.value(
            .integer(
                "throttle_base_delay_seconds", in: 1...86_400, default: Int(defaults.backoff.baseDelaySeconds),
                summary: "the first wait; it doubles with every further failure"))
        let maximumDelay = try reader.value(
            .integer(
                "throttle_max_delay_seconds", in: 1...604_800, default: Int(defaults.backoff.maximumDelaySeconds),
                summary: "the longest wait"))
        let ceiling = try reader.value(
            .integer(
                "account_ceiling", in: 1...1_000_000, default: defaults.accountCeiling,
                summary: "failed logins from unknown devices, all clients together, an account takes before they wait"))
        let drain = try reader.value(
            .integer(
                "ceiling_drain_seconds", in: 1...86_400, default: Int(defaults.ceilingDrainSeconds),
                summary: "one failure leaves an account's ceiling every this many seconds"))
        return LoginThrottlePolicy(
            backoff: ThrottlePolicy(
                freeAttempts: after, baseDelaySeconds: Int64(baseDelay), maximumDelaySeconds: Int64(maximumDelay)),
            accountCeiling: ceiling, ceilingDrainSeconds: Int64(drain))
    }
}
