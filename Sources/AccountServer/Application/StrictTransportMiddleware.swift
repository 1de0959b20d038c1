import HTTPTypes
import Hummingbird

/// `Strict-Transport-Security` on every answer of a server that speaks HTTPS itself, so a
/// browser that has been here once never sends a request (or a session cookie) over plain
/// HTTP to this host again. Added only with TLS: over HTTP the header means nothing, and behind
/// a TLS proxy the proxy sends it.
struct StrictTransportMiddleware<Context: RequestContext>: RouterMiddleware {
    let value: String

    init(maxAgeSeconds: Int) {
        value = "max-age=\(maxAgeSeconds)"
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.strictTransportSecurity] = value
        return response
    }
}
