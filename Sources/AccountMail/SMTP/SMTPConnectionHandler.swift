import NIOCore
import NIOSSL

/// Asks the connection's handler to start TLS right after the next reply (the `220` to
/// `STARTTLS`), before any other byte is read.
struct StartTLSAfterNextReply: Sendable {
    let context: NIOSSLContext
    let serverHostname: String?
}

/// Turns the relay's bytes into replies for the client, and switches the connection to TLS
/// after `STARTTLS`'s reply within the same read, so that no byte read before the handshake is
/// ever taken for one read after it: bytes the relay (or someone in the path) sent after that
/// reply, before TLS, end the connection (the STARTTLS command injection of CVE-2011-0411).
final class SMTPConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let replies: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private var unread: [UInt8] = []
    private var parser = SMTPReplyParser()
    private var pendingTLS: StartTLSAfterNextReply?

    init(replies: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.replies = replies
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        unread += bytes.readBytes(length: bytes.readableBytes) ?? []
        do {
            try readReplies(context)
        } catch {
            fail(context, error)
        }
    }

    private func readReplies(_ context: ChannelHandlerContext) throws {
        while let end = unread.firstIndex(of: 0x0A) {
            guard end > 0, unread[end - 1] == 0x0D else {
                throw MailDeliveryError.protocolViolation("the relay ended a line without CRLF")
            }
            let line = Array(unread[..<(end - 1)])
            unread.removeFirst(end + 1)
            guard let reply = try parser.take(line: line) else { continue }
            if let tls = pendingTLS {
                pendingTLS = nil
                if reply.code == 220 {
                    guard unread.isEmpty else {
                        throw MailDeliveryError.protocolViolation(
                            "the relay sent bytes after its STARTTLS reply, before the TLS handshake")
                    }
                    let handler = try NIOSSLClientHandler(context: tls.context, serverHostname: tls.serverHostname)
                    try context.pipeline.syncOperations.addHandler(handler, position: .first)
                }
            }
            replies.yield(reply)
        }
        guard unread.count <= SMTPReplyParser.maximumLineLength else {
            throw MailDeliveryError.protocolViolation("the relay sent a line longer than any reply")
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let tls = event as? StartTLSAfterNextReply else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        pendingTLS = tls
        promise?.succeed(())
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            fail(context, MailDeliveryError.connection("the relay did not answer in time"))
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        replies.finish(throwing: MailDeliveryError.connection("the relay closed the connection"))
        context.fireChannelInactive()
    }

    private func fail(_ context: ChannelHandlerContext, _ error: any Error) {
        replies.finish(throwing: error)
        context.close(promise: nil)
    }
}
