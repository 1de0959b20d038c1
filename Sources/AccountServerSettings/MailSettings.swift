/// The `mail.…` settings: where the account flows' mail goes. Mail is off while `smtpHost` is
/// empty: requests are still queued in the store, and sent once a relay is configured.
public struct MailSettings: Sendable, Equatable {
    /// How the connection to the relay is protected.
    public enum Security: String, Sendable, CaseIterable {
        case starttls, tls, none
    }

    /// The relay's host name or address; empty: no relay.
    public var smtpHost: String
    public var smtpPort: Int
    public var security: Security
    /// The sender address of every mail.
    public var from: String
    /// The login at the relay (with the password in ``passwordFile``); empty: none.
    public var username: String
    /// A file holding the relay password (its first line), never the setting itself.
    public var passwordFile: String?
    /// A PEM file of the certificates to trust for the relay instead of the system's.
    public var caFile: String?
    /// The name this host gives in `EHLO`.
    public var heloName: String
    /// Seconds before the first retry of a mail that failed; each later one waits twice as long.
    public var retrySeconds: Int = 30

    /// The defaults of every key; give only what differs.
    public init(
        smtpHost: String = "", smtpPort: Int = 587, security: Security = .starttls, from: String = "",
        username: String = "", passwordFile: String? = nil, caFile: String? = nil, heloName: String = "localhost"
    ) {
        self.smtpHost = smtpHost
        self.smtpPort = smtpPort
        self.security = security
        self.from = from
        self.username = username
        self.passwordFile = passwordFile
        self.caFile = caFile
        self.heloName = heloName
    }

    /// Whether a relay is configured.
    public var isEnabled: Bool { !smtpHost.isEmpty }

    /// Whether `host` names this machine's loopback: the only relay `security: .none` may send
    /// to (the settings refuse another, and so does the client, whoever made its relay).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Why `mail.tls: none` is refused for a relay elsewhere.
    public static let clearTextOffLoopback = "none is allowed only for a relay on this machine's loopback"
    /// Why a login at the relay without TLS is refused.
    public static let loginWithoutTLS = "a login at the relay is only ever sent over TLS"
}
