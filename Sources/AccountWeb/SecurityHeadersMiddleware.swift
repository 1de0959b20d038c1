import HTTPTypes
import Hummingbird

/// The headers every page and asset carries: a Content-Security-Policy that allows only the
/// site's own script, style and requests (so no inline code runs) and no framing, no
/// referrer to other sites, no content-type sniffing.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        Self.apply(to: &response)
        return response
    }

    static func apply(to response: inout Response) {
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
}
