import HTTPTypes
import Hummingbird

/// Lets the browser pages of the configured origins call the API (`server.cors_origins`): a
/// preflight from one of them gets 204 with the methods and headers the API uses; any answer
/// to one of them (errors included) carries `Access-Control-Allow-Origin`. Other origins get
/// no CORS header, so the browser keeps them out. Cookies are never allowed cross-origin: the
/// API authenticates with a bearer token.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: Set<String>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let origin = request.headers[.origin], origins.contains(origin) else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
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
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
        return response
    }
}
