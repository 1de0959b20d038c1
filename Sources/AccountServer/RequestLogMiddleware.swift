import HTTPTypes
import Hummingbird
import Logging

/// One structured log line per request, after its response: request id, method, path (never
/// the query), status, duration and client. Headers and bodies are never logged, so no
/// password, token or `Authorization` value can reach the log. With `metrics`, each request is
/// also counted there. Every response carries the request id as `X-Request-Id`, so a client
/// can quote the request whose log line an operator should read (a 500 says only that the
/// cause is in the log).
public struct RequestLogMiddleware<Context: AccountRoutesContext>: RouterMiddleware {
    let metrics: ServerMetrics?

    /// Logs at `info`, and counts into `metrics` when given.
    public init(metrics: ServerMetrics? = nil) {
        self.metrics = metrics
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Answered here rather than by the router further out, so it carries the id too.
            response = try error.response(from: request, context: context)
        } catch {
            log(request, context, status: 500, since: start)
            throw error
        }
        log(request, context, status: Int(response.status.code), since: start)
        response.headers[.requestID] = context.id
        return response
    }

    private func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        metrics?.record(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status,
            duration: elapsed)
        let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
        context.logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "path": .string(request.uri.path),
                "status": .stringConvertible(status),
                // Tenths of a millisecond, written without `String(format:)` (a quarter of the line's cost).
                "ms": .string("\(tenths / 10).\(tenths % 10)"),
                "client": .string(context.peerAddress ?? "unknown"),
            ])
    }
}

extension HTTPField.Name {
    /// The id of the request's log line.
    static let requestID = HTTPField.Name("X-Request-Id")!
}
