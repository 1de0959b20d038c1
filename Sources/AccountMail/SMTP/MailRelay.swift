/// Where mail goes and how: the `mail.…` settings.
public struct MailRelay: Sendable, Hashable {
    /// How the connection to the relay is protected.
    public enum Security: String, Sendable, Hashable, CaseIterable {
        /// Plain connection upgraded with STARTTLS (RFC 3207), which the relay must offer: the
        /// client never falls back to sending in clear.
        case starttls
        /// TLS from the first byte (RFC 8314 implicit TLS, port 465).
        case tls
        /// No TLS: only for a relay on this machine's loopback.
        case none
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// The envelope and `From:` address.
    public var from: String
    /// The login at the relay (`AUTH PLAIN`, or `LOGIN`), only ever sent over TLS.
    public var username: String?
    public var password: RedactedSecret?
    /// A PEM file of the certificates to trust for the relay, instead of the system's.
    public var trustRootsFile: String?
    /// The name this host gives in `EHLO`.
    public var heloName: String

    public init(
        host: String, port: Int, security: Security = .starttls, from: String, username: String? = nil,
        password: RedactedSecret? = nil, trustRootsFile: String? = nil, heloName: String = "localhost"
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.from = from
        self.username = username
        self.password = password
        self.trustRootsFile = trustRootsFile
        self.heloName = heloName
    }
}

/// A secret that never shows in a description, a log line or a dump of its holder.
public struct RedactedSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself, for the one place that sends it.
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}
