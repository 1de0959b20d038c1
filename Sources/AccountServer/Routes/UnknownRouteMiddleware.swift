import AccountCore
import HTTPTypes
import Hummingbird

/// Answers what no route takes with the API's own errors instead of the router's empty 404: a
/// known path asked with another method is 405 with `Allow` (the path exists, the method does
/// not), and an unknown path in one of the API's namespaces (`/v1`, `/api`) 404 `not_found`.
/// Other unknown paths keep the router's 404: an application that mounts the routes keeps its
/// own answer for its own paths (`accounts serve`, which owns every path, names `/`). Both
/// errors are thrown, in Strapi's shape under `/api` and the native one elsewhere, so that a
/// middleware further out (an embedder's, or the web pages' own 404 page for browsers) can
/// still answer them its way; `accounts serve` hands that page in as `notFoundPage` instead.
struct UnknownRouteMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each path's methods (paths without a trailing slash).
    let allowed: [String: [HTTPRequest.Method]]
    /// The path prefixes whose unknown paths are the API's to answer (`/v1`); `/` is every path.
    let namespaces: [String]
    /// An answer of its own for an unknown path (the web pages' HTML page for a browser), tried
    /// before the JSON 404.
    var notFoundPage: (@Sendable (Request) -> Response?)? = nil

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            var path = request.uri.path
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            let problem: RequestProblem
            if let methods = allowed[path], !methods.contains(request.method) {
                problem = RequestProblem(
                    kind: .methodNotAllowed(method: request.method.rawValue, allowed: methods.map(\.rawValue).sorted()))
            } else if allowed[path] == nil, let page = notFoundPage?(request) {
                return page
            } else if allowed[path] == nil,
                namespaces.contains(where: { $0 == "/" || path == $0 || path.hasPrefix($0 + "/") })
            {
                problem = RequestProblem(kind: .noSuchRoute)
            } else {
                // Not the API's path, or a route that answered 404 itself: not this middleware's.
                throw error
            }
            let style: APIFailure.Style = path == "/api" || path.hasPrefix("/api/") ? .strapi : .native
            throw APIFailure(
                problem, language: AcceptLanguage.language(from: request.headers[.acceptLanguage]), style: style)
        }
    }
}
