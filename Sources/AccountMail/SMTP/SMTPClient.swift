import AccountServerSettings
import Foundation
public import NIOCore
public import NIOPosix
import NIOSSL

/// A mail submission client (RFC 5321, RFC 6409): one connection per mail, `EHLO`, `STARTTLS`
/// when configured (RFC 3207; a relay that does not offer it is refused, never written to in
/// clear), a login only over TLS (`AUTH PLAIN`, RFC 4616, or `LOGIN`), then one message.
public struct SMTPClient: Sendable {
    /// Where and how.
    public let relay: MailRelay
    private let group: any EventLoopGroup
    private let tls: NIOSSLContext?
    /// How long the relay may take for each reply.
    private let replyTimeout: TimeAmount

    /// A client of `relay`.
    /// - Throws: `unsupported` for a login without TLS or a relay without TLS off this
    ///   machine; the TLS library's error for a trust file it cannot read.
    public init(
        relay: MailRelay, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        replyTimeout: TimeAmount = .seconds(60)
    ) throws {
        if relay.security == .none {
            guard MailSettings.isLoopback(relay.host) else {
                throw MailDeliveryError.unsupported("mail.tls " + MailSettings.clearTextOffLoopback)
            }
            guard relay.username == nil else { throw MailDeliveryError.unsupported(MailSettings.loginWithoutTLS) }
        }
        self.relay = relay
        self.group = group
        self.replyTimeout = replyTimeout
        if relay.security == .none {
            tls = nil
        } else {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            if let file = relay.trustRootsFile { configuration.trustRoots = .file(file) }
            tls = try NIOSSLContext(configuration: configuration)
        }
    }

    /// Hands `message` to the relay; returns once the relay accepted it (its `250` after the
    /// data), which is when it is the relay's to deliver.
    public func send(_ message: MailMessage) async throws(MailDeliveryError) {
        do {
            try await converse(message)
        } catch let error as MailDeliveryError {
            throw error
        } catch let error as NIOSSLError {
            throw .connection("TLS failed: \(error)")
        } catch {
            throw .connection(String(describing: error))
        }
    }

    private func converse(_ message: MailMessage) async throws {
        // An address that could end its command line early would let it say more.
        guard MailMessage.isSafeAddress(relay.from), MailMessage.isSafeAddress(message.recipient) else {
            throw MailDeliveryError.recipientRefused("an address holds a character no SMTP command may carry")
        }
        let (replies, continuation) = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let hostname = Self.isAddress(relay.host) ? nil : relay.host
        let implicitTLS = relay.security == .tls ? tls : nil
        let timeout = replyTimeout
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(15))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: implicitTLS, serverHostname: hostname))
                    }
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: timeout))
                    try channel.pipeline.syncOperations.addHandler(SMTPConnectionHandler(replies: continuation))
                }
            }
            .connect(host: relay.host, port: relay.port).get()
        let conversation = SMTPConversation(channel: channel, replies: replies)
        defer { channel.close(promise: nil) }
        try await conversation.expect(220, at: "the greeting")
        var offered = try await conversation.command("EHLO \(relay.heloName)", expect: 250, at: "EHLO").extensions
        if relay.security == .starttls {
            guard offered["STARTTLS"] != nil, let tls else {
                throw MailDeliveryError.unsupported(
                    "the relay does not offer STARTTLS, which mail.tls starttls requires; nothing was sent in clear")
            }
            try await channel.triggerUserOutboundEvent(StartTLSAfterNextReply(context: tls, serverHostname: hostname))
                .get()
            try await conversation.command("STARTTLS", expect: 220, at: "STARTTLS")
            // RFC 3207 §4.2: forget what the relay said before TLS, and ask again.
            offered = try await conversation.command("EHLO \(relay.heloName)", expect: 250, at: "EHLO").extensions
        }
        if let username = relay.username {
            try await logIn(conversation, username, relay.password?.value ?? "", offered: offered["AUTH"] ?? [])
        }
        let international = !(relay.from + message.recipient).utf8.allSatisfy { $0 < 0x80 }
        if international, offered["SMTPUTF8"] == nil {
            throw MailDeliveryError.recipientRefused("the relay does not take addresses beyond ASCII (no SMTPUTF8)")
        }
        try await conversation.command(
            "MAIL FROM:<\(relay.from)>" + (international ? " SMTPUTF8" : ""), expect: 250, at: "the sender")
        do {
            try await conversation.command("RCPT TO:<\(message.recipient)>", expect: 250...251, at: "the recipient")
        } catch MailDeliveryError.refused(_, let reply) where reply.hasPrefix("5") {
            throw MailDeliveryError.recipientRefused(reply)
        }
        try await conversation.command("DATA", expect: 354, at: "DATA")
        try await conversation.write(MailMessage.dotStuffed(message.rendered()) + ".\r\n")
        try await conversation.expect(250, at: "the message")
        // Accepted: a failing QUIT changes nothing.
        _ = try? await conversation.command("QUIT", expect: 221, at: "QUIT")
    }

    /// `AUTH PLAIN` when offered (or nothing is listed), else `AUTH LOGIN`.
    private func logIn(
        _ conversation: SMTPConversation, _ username: String, _ password: String, offered: [String]
    ) async throws {
        if offered.isEmpty || offered.contains("PLAIN") {
            let token = Data(("\u{0}" + username + "\u{0}" + password).utf8).base64EncodedString()
            try await conversation.command("AUTH PLAIN " + token, expect: 235, at: "the login")
        } else if offered.contains("LOGIN") {
            try await conversation.command("AUTH LOGIN", expect: 334, at: "the login")
            try await conversation.command(
                Data(username.utf8).base64EncodedString(), expect: 334, at: "the login")
            try await conversation.command(
                Data(password.utf8).base64EncodedString(), expect: 235, at: "the login")
        } else {
            throw MailDeliveryError.unsupported(
                "the relay offers no login this client makes (AUTH \(offered.joined(separator: " ")))")
        }
    }

    /// Whether `host` is an IP address (no name for TLS's server name indication).
    static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
    }
}

/// The replies of one connection, read in order, and the commands written to it.
private final class SMTPConversation {
    private let channel: any Channel
    private var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator

    init(channel: any Channel, replies: AsyncThrowingStream<SMTPReply, any Error>) {
        self.channel = channel
        self.replies = replies.makeAsyncIterator()
    }

    func write(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text))
    }

    @discardableResult
    func expect(_ codes: ClosedRange<Int>, at step: String) async throws -> SMTPReply {
        guard let reply = try await replies.next() else {
            throw MailDeliveryError.connection("the relay closed the connection at \(step)")
        }
        guard codes.contains(reply.code) else { throw MailDeliveryError.refused(step: step, reply: reply.summary) }
        return reply
    }

    @discardableResult
    func expect(_ code: Int, at step: String) async throws -> SMTPReply {
        try await expect(code...code, at: step)
    }

    /// Writes `line` and reads its reply. Errors name the step, never the line (a login's
    /// line holds the password).
    @discardableResult
    func command(_ line: String, expect codes: ClosedRange<Int>, at step: String) async throws -> SMTPReply {
        try await write(line + "\r\n")
        return try await expect(codes, at: step)
    }

    @discardableResult
    func command(_ line: String, expect code: Int, at step: String) async throws -> SMTPReply {
        try await command(line, expect: code...code, at: step)
    }
}
