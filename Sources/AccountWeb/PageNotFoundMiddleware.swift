import HTTPTypes
import Hummingbird

/// Answers a browser's `GET` of a path that is neither a page nor an API route with
/// ``AccountWebPages/notFoundPage(for:)``; other clients keep the JSON. `addRoutes(to:)` adds it
/// before the pages, so it wraps every route added after it too.
struct PageNotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    let pages: AccountWebPages

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            guard let page = pages.notFoundPage(for: request) else { throw error }
            return page
        }
    }
}
