import AccountBackendKit
import AccountCore
import AccountServerSettings

/// `mail.…`: the SMTP relay the account flows' mail goes through (``MailSettings``, whose
/// defaults are these keys').
enum MailSection {
    static let from = BackendSetting.text(
        "from", default: MailSettings().from, summary: "the sender address of every mail")

    static func read(_ reader: SectionReader) throws(AccountError) -> MailSettings {
        let defaults = MailSettings()
        var mail = defaults
        mail.smtpHost = try reader.value(
            .text(
                "smtp_host", default: defaults.smtpHost,
                summary: "the relay mail is submitted to (empty: none; requests wait in the store until one is set)"))
        mail.smtpPort = try reader.value(
            .integer("smtp_port", in: 1...65_535, default: defaults.smtpPort, summary: "the relay's port"))
        let tls = BackendSetting<MailSettings.Security>.choice(
            "tls", default: defaults.security,
            summary:
                "starttls (required, never falls back to clear text), tls (from the first byte), none (loopback only)")
        mail.security = try reader.value(tls)
        mail.from = try reader.value(Self.from)
        mail.username = try reader.value(
            .text("username", default: defaults.username, summary: "the login at the relay (sent only over TLS)"))
        mail.passwordFile = try reader.path(
            .path("password_file", summary: "a file whose first line is the relay password"))
        mail.caFile = try reader.path(
            .path("ca_file", summary: "PEM certificates to trust for the relay instead of the system's"))
        mail.heloName = try reader.value(
            .text("helo_name", default: defaults.heloName, summary: "the name this host gives the relay in EHLO"))
        mail.retrySeconds = try reader.value(
            .integer(
                "retry_seconds", in: 1...3_600, default: defaults.retrySeconds,
                summary:
                    "seconds before a failed mail is tried again; each later try waits twice as long, up to an hour"
            ))
        guard mail.isEnabled else { return mail }
        let tlsName = reader.key(tls).name
        if mail.security == .none, !MailSettings.isLoopback(mail.smtpHost) {
            throw .configInvalid(key: tlsName, reason: MailSettings.clearTextOffLoopback)
        }
        if mail.security == .none, !mail.username.isEmpty {
            throw .configInvalid(key: tlsName, reason: MailSettings.loginWithoutTLS)
        }
        if !mail.from.contains("@") {
            throw .configInvalid(key: reader.key(Self.from).name, reason: "a relay needs a sender address")
        }
        return mail
    }
}
