import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Makes an HTTP/1.0 request without `Connection: keep-alive` say `Connection: close`, so the
/// server closes the connection after the answer, as HTTP/1.0 means (RFC 9112 §9.3): a client
/// of that version reads the answer until the connection closes. Hummingbird reads requests as
/// `HTTPTypes`, which keep no version, and closes only on that header; this handler sits before
/// the conversion, where the version is still known. ``UnparsableRequestHandler`` puts it there.
final class HTTP10ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.version == .http1_0, !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Adds one in front of the channel's HTTP/1 to `HTTPTypes` conversion, if it has one.
    static func insert(into pipeline: ChannelPipeline.SynchronousOperations) {
        guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) else { return }
        try? pipeline.addHandler(HTTP10ConnectionHandler(), position: .before(codec))
    }
}
