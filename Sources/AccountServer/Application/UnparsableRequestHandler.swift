import AccountCore
import AccountJSON
import Hummingbird
public import HummingbirdCore
public import Logging
public import NIOCore
import NIOHTTP1
public import NIOHTTPTypes

/// Answers a request that SwiftNIO's HTTP/1.1 parser refuses (a URL and headers over its limit,
/// or bytes that are not HTTP) with the API's JSON error, an `X-Request-Id` and a request log
/// line, and closes the connection; and closes an HTTP/1.0 client's connection after its answer
/// (`HTTP10ConnectionHandler`). Without it Hummingbird answers such a request with an
/// empty 400 that no log line or metric records: a client with a 100 KB URL could not tell
/// what was wrong, nor an operator that it happened.
///
/// The parser stops at the first such byte, before the request reaches any route, so the
/// answer has the native shape and English (neither the path nor `Accept-Language` was read),
/// and the log line has no method or path. A request whose head was read, or whose response is
/// still being written, is left to Hummingbird as before: only a connection with nothing in
/// progress is answered here, so no answer is ever written into the middle of another.
///
/// ``AccountServerApplication`` adds one to every connection. An application of your own adds
/// it through its HTTP server's configuration; the list is made anew for each connection:
///
/// ```swift
/// let server = HTTPServerBuilder.http1(
///     configuration: .init(additionalChannelHandlers: [UnparsableRequestHandler(logger: logger)]))
/// let application = Application(router: router, server: server, logger: logger)
/// ```
public final class UnparsableRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    private let logger: Logger
    private let metrics: ServerMetrics?
    private let headerLimit: Int
    /// Request heads read whose response has not ended yet (pipelined requests count each).
    private var responsesOwed = 0
    /// Whether a request's head was read and its end not yet.
    private var readingRequest = false
    /// Whether this handler answered; the connection closes after that answer.
    private var answered = false

    /// - Parameters:
    ///   - logger: the server's logger, for the request's line.
    ///   - metrics: where the refused request is counted (route `unparsed`), if anywhere.
    ///   - headerLimit: the parser's limit on a request line and headers together, named in
    ///     the answer: the server's `maxHeaderListSize` (Hummingbird's default unless set).
    public init(
        logger: Logger, metrics: ServerMetrics? = nil,
        headerLimit: Int = HTTP1Channel.Configuration.DecoderConfiguration().maxHeaderListSize
    ) {
        self.logger = logger
        self.metrics = metrics
        self.headerLimit = headerLimit
    }

    /// Puts an `HTTP10ConnectionHandler` before the HTTP/1 conversion too, so that an HTTP/1.0
    /// client without keep-alive gets its connection closed after the answer.
    public func handlerAdded(context: ChannelHandlerContext) {
        HTTP10ConnectionHandler.insert(into: context.pipeline.syncOperations)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            responsesOwed += 1
            readingRequest = true
        case .end:
            readingRequest = false
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { responsesOwed -= 1 }
        context.write(data, promise: promise)
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Once answered, the connection is closing: what the decoder reports about bytes that
        // came after the refused request concerns nobody.
        guard !answered else { return }
        guard let parserError = error as? HTTPParserError, responsesOwed == 0, !readingRequest else {
            context.fireErrorCaught(error)
            return
        }
        // Not passed on: Hummingbird would write its own empty 400 after this answer.
        answered = true
        let problem = RequestProblem(
            kind: parserError == .headerOverflow ? .headersTooLarge(limit: headerLimit) : .notHTTP)
        let failure = APIFailure(problem, language: .english, style: .native)
        let id = RequestLogMiddleware<AccountRequestContext>.randomID()
        // Recorded before the answer is written, as the request log middleware does. No
        // duration: the request ended where the parser stopped, and nothing ran for it.
        metrics?.record(method: "unknown", route: "unparsed", status: Int(failure.status.code), duration: .zero)
        logger.info(
            "request",
            metadata: [
                Logger.requestIDKey: .string(id),
                "status": .stringConvertible(failure.status.code),
                "refused": .string(failure.code),
                "client": .string(context.channel.remoteAddress?.ipAddress ?? "unknown"),
            ])
        let body = ByteBuffer(string: APIBody.failure(code: failure.code, message: failure.message).serialized())
        let head = HTTPResponse(
            status: failure.status,
            headerFields: HTTPFields.jsonAnswer + [
                .contentLength: String(body.readableBytes), .connection: "close", .requestID: id,
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
