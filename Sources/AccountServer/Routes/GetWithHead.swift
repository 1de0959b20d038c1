public import Hummingbird

extension RouterMethods {
    /// Adds `handler` for `GET path` and for `HEAD path`. A HEAD request runs the same handler
    /// and is answered its status and headers, `Content-Length` included, without the body:
    /// HTTP requires every server that answers GET to answer HEAD (RFC 9110, 9.3.2), and load
    /// balancers and uptime checks often probe with it. Registered here, not by the router's
    /// `.autoGenerateHeadEndpoints`, so that the routes answer HEAD in any router they are
    /// mounted in, and the router's list of routes (and so the `Allow` header of a 405) names
    /// HEAD wherever it works.
    @discardableResult public func getWithHead<Output: ResponseGenerator>(
        _ path: RouterPath = "", use handler: @Sendable @escaping (Request, Context) async throws -> Output
    ) -> Self {
        get(path, use: handler)
        return head(path) { request, context in
            try await handler(request, context).response(from: request, context: context).createHeadResponse()
        }
    }
}
