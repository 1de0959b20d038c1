import AccountBackendKit
import AccountCore

/// `recovery.…`: codes mailed to reset a password or prove an email (``RecoveryPolicy``, whose
/// defaults are these keys').
enum RecoverySection {
    static func read(_ reader: SectionReader) throws(AccountError) -> RecoveryPolicy {
        let defaults = RecoveryPolicy()
        let lifetime = try reader.value(
            .integer(
                "code_lifetime_minutes", in: 5...1_440, default: Int(defaults.codeLifetimeSeconds / 60),
                summary: "a mailed code works once, for this many minutes after its mail is sent"))
        let perWindow = try reader.value(
            .integer(
                "mails_per_address", in: 1...100, default: defaults.requestsPerWindow,
                summary: "mails one address may be sent per window, whether an account holds it or not"))
        let window = try reader.value(
            .integer(
                "window_minutes", in: 1...1_440, default: Int(defaults.requestWindowSeconds / 60),
                summary: "the window of recovery.mails_per_address"))
        return RecoveryPolicy(
            codeLifetimeSeconds: Int64(lifetime) * 60, requestsPerWindow: perWindow,
            requestWindowSeconds: Int64(window) * 60)
    }
}
