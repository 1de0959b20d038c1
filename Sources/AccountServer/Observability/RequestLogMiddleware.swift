import AccountServerSettings
import HTTPTypes
public import Hummingbird
import Logging

/// One structured log line per request, after its response: request id, method, path (never
/// the query), status, duration and client. Headers and bodies are never logged, so no
/// password, token or `Authorization` value can reach the log. With `metrics`, each request is
/// also counted there. Every response carries the request id as `X-Request-Id`, so a client
/// can quote the request whose log line an operator should read (a 500 says only that the
/// cause is in the log).
///
/// Behind a trusted proxy the line's client is the one the proxy names in `X-Forwarded-For`
/// (the address the per-client limits count), with the proxy as `via`, and an `X-Request-Id`
/// the proxy sends (nginx's `$request_id`, say) becomes the request's id, so the proxy's log
/// and this one name a request alike. From any other peer both headers are ignored.
public struct RequestLogMiddleware<Context: AccountRoutesContext>: RouterMiddleware {
    let metrics: ServerMetrics?
    let clientAddress: ClientAddress

    /// Logs at `info`, and counts into `metrics` when given.
    /// - Parameters:
    ///   - metrics: where each request is counted.
    ///   - trustedProxies: peers whose `X-Forwarded-For` and `X-Request-Id` are believed (the
    ///     `AccountAPI`'s): IP addresses or CIDR blocks.
    public init(metrics: ServerMetrics? = nil, trustedProxies: [String] = []) {
        self.init(
            metrics: metrics,
            clientAddress: ClientAddress(trustedProxies: trustedProxies.compactMap(IPAddressRange.init)))
    }

    init(metrics: ServerMetrics?, clientAddress: ClientAddress) {
        self.metrics = metrics
        self.clientAddress = clientAddress
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        let fromProxy = clientAddress.isTrustedProxy(context.peerAddress)
        if fromProxy, let id = request.headers[.requestID], Self.isUsableID(id) {
            context.logger[metadataKey: Logger.requestIDKey] = .string(id)
        } else {
            // Random per request: Hummingbird's own id, a prefix per process and a counter,
            // would let anyone count the server's traffic and see when it restarted.
            context.logger[metadataKey: Logger.requestIDKey] = .string(Self.randomID())
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Answered here rather than by the router further out, so it carries the id too.
            response = try error.response(from: request, context: context)
        } catch {
            log(request, context, status: 500, fromProxy: fromProxy, since: start)
            throw error
        }
        log(request, context, status: Int(response.status.code), fromProxy: fromProxy, since: start)
        response.headers[.requestID] = context.id
        return response
    }

    /// 128 random bits in hex, as a request's id.
    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// A proxy's id is taken when it is 1 to 128 visible ASCII characters, without quotes or
    /// backslashes: anything else would make the id awkward to quote, or to search a log for.
    static func isUsableID(_ id: String) -> Bool {
        let bytes = id.utf8
        return (1...128).contains(bytes.count)
            && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    private func log(
        _ request: Request, _ context: Context, status: Int, fromProxy: Bool, since start: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - start
        metrics?.record(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status,
            duration: elapsed)
        let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
        let peer = context.peerAddress ?? "unknown"
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.path),
            "status": .stringConvertible(status),
            // Tenths of a millisecond, written without `String(format:)` (a quarter of the line's cost).
            "ms": .string("\(tenths / 10).\(tenths % 10)"),
            "client": .string(peer),
        ]
        if fromProxy {
            let client = clientAddress.resolve(peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor])
            metadata["client"] = .string(client)
            metadata["via"] = .string(peer)
        }
        context.logger.info("request", metadata: metadata)
    }
}

extension HTTPField.Name {
    /// The id of the request's log line.
    static let requestID = HTTPField.Name("X-Request-Id")!
}

extension Logger {
    /// The metadata key of a request's id: Hummingbird's own, under which it gives each request
    /// an id and from which `RequestContext.id` reads it back. A request the parser refused
    /// never reaches Hummingbird, so ``UnparsableRequestHandler`` makes its id and logs it under
    /// the same key.
    static let requestIDKey = "hb.request.id"
}
