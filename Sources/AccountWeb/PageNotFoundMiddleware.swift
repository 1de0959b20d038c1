import HTTPTypes
import Hummingbird

/// Answers a browser's `GET` of a path that is neither a page nor an API route with an HTML
/// page (in its language, with a way back to the start) instead of the API's JSON 404; other
/// clients keep the JSON.
struct PageNotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    let pages: AccountWebPages

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            let wantsPage = request.headers[.accept]?.contains("text/html") == true
            guard request.method == .get, wantsPage else { throw error }
            let visit = WebVisit(request)
            var response = pages.messagePage(
                title: visit.text.notFoundTitle, message: visit.text.notFoundMessage, visit: visit, status: .notFound)
            SecurityHeadersMiddleware<Context>.apply(to: &response)
            return response
        }
    }
}
