/// Why a mail was not handed to the relay. Never holds the message, a code or a password: only
/// what the relay answered, or what went wrong on the way.
public enum MailDeliveryError: Error, Sendable, Hashable {
    /// The relay refused the recipient for good (a 5xx reply to `RCPT TO`): sending again
    /// cannot help.
    case recipientRefused(String)
    /// The relay answered with an error (4xx: later; 5xx: not as configured) at `step`.
    case refused(step: String, reply: String)
    /// The relay could not be reached, or the connection broke or timed out.
    case connection(String)
    /// The relay does not offer what the configuration requires (STARTTLS, a login).
    case unsupported(String)
    /// The relay broke the protocol (bytes that are no reply, bytes sent before the TLS
    /// handshake).
    case protocolViolation(String)

    /// Whether sending the mail again later may succeed.
    public var isWorthRetrying: Bool {
        if case .recipientRefused = self { return false }
        return true
    }

    /// One line for the outbox, the log and `doctor`.
    public var summary: String {
        switch self {
        case .recipientRefused(let reply): "the relay refused the recipient: \(reply)"
        case .refused(let step, let reply): "the relay refused \(step): \(reply)"
        case .connection(let reason): "no connection to the relay: \(reason)"
        case .unsupported(let reason): reason
        case .protocolViolation(let reason): reason
        }
    }
}
