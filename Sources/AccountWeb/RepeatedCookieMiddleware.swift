import AccountServer
import HTTPTypes
import Hummingbird

/// Refuses a request to the pages that carries one of their cookies twice: a cookie another site
/// planted for a parent domain (on plain HTTP, where the names have no `__Host-` prefix) beside
/// this site's own, to swap the session, sign the browser in as someone else, or out. Which of
/// the two is this site's cannot be told, so neither is believed: 400, with a page saying which
/// cookie to clear and that nothing was changed.
struct RepeatedCookieMiddleware<Context: RequestContext>: RouterMiddleware {
    let pages: AccountWebPages

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let name = RequestCookies(request, names: pages.cookies.all).repeated else {
            return try await next(request, context)
        }
        let visit = pages.visit(of: request)
        return pages.messagePage(
            title: visit.text.errorTitle, message: visit.text.repeatedCookie(name), visit: visit, status: .badRequest)
    }
}
