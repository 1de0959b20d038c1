import AccountCore
import FileSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers a known path asked with another method 405 with `Allow`, instead of the router's
/// 404: the path exists, the method does not.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each path's methods (paths without a trailing slash).
    let allowed: [String: [HTTPRequest.Method]]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            var path = request.uri.path
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            guard let methods = allowed[path], !methods.contains(request.method) else { throw error }
            let language = AcceptLanguage.language(from: request.headers[.acceptLanguage])
            let message =
                language == .korean
                ? "이 경로는 \(request.method.rawValue) 요청을 받지 않습니다."
                : "\(request.method.rawValue) is not allowed here."
            let body = APIBody.failure(code: "method_not_allowed", message: message).serialized()
            return Response(
                status: .methodNotAllowed,
                headers: [
                    .allow: methods.map(\.rawValue).sorted().joined(separator: ", "),
                    .contentType: "application/json; charset=utf-8",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
    }
}
