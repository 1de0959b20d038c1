import HTTPTypes
import Hummingbird

/// Lets the browser pages of the configured origins call the API (`server.cors_origins`): a
/// preflight from one of them gets 204 with the methods and headers the API uses; any answer
/// to one of them (errors included) carries `Access-Control-Allow-Origin`, and exposes the
/// headers a client acts on (`Retry-After` of a 429 or 503, `X-Request-Id` to report a
/// failure by, `WWW-Authenticate`), which a page could not read otherwise. Other origins get
/// no CORS header, so the browser keeps them out. Every answer says `Vary: Origin`, so a cache
/// between never hands one origin's answer to another. Cookies are never allowed
/// cross-origin: the API authenticates with a bearer token.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: Set<String>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let origin = request.headers[.origin].flatMap { origins.contains($0) ? $0 : nil }
        if let origin, request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: origin, .vary: "Origin",
                    .accessControlAllowMethods: "GET, POST",
                    .accessControlAllowHeaders: "Authorization, Content-Type, Accept-Language",
                    .accessControlMaxAge: "600",
                ])
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        if let origin {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = "Retry-After, X-Request-Id, WWW-Authenticate"
        }
        response.headers[.vary] = response.headers[.vary].map { $0 + ", Origin" } ?? "Origin"
        return response
    }
}
