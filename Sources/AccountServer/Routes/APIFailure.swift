package import AccountCore
import AccountJSON
import Foundation
package import HTTPTypes
package import Hummingbird
import NIOCore

/// A failed request as the client sees it: a status, the stable code of `--json`, a message in
/// the request's language, and `Retry-After` when waiting helps. Store failures never show
/// their internals (paths, engine messages): those go to the server's log only.
package struct APIFailure: Error, HTTPResponseError {
    /// The two shapes of error body.
    package enum Style: Sendable {
        /// `{"ok":false,"code":…,"message":…}`, as `accounts … --json`.
        case native
        /// `{"data":null,"error":{"status":…,"name":…,"message":…,"details":{…}}}`, as Strapi.
        case strapi
    }

    package let status: HTTPResponse.Status
    package let code: String
    package let message: String
    package let retryAfterSeconds: Int64?
    /// The methods of the path, for a 405's `Allow`.
    package let allowedMethods: [String]?
    package let style: Style
    /// Every rule each field broke, for a sign-up or new password that broke any (else empty).
    package let fieldProblems: [(field: String, code: String, message: String)]

    /// Whether the client was told less than the error says (a store's internals: a failed or
    /// busy store), so the server logs its cause.
    package let hidesCause: Bool

    package init(_ thrown: any Error, language: Language, style: Style) {
        self.style = style
        let invalid = thrown as? InvalidFields
        fieldProblems =
            invalid?.problems.map { ($0.field, $0.error.code, $0.error.message(language)) } ?? []
        let error = invalid?.first ?? thrown
        allowedMethods = (error as? RequestProblem).flatMap { problem in
            if case .methodNotAllowed(_, let allowed) = problem.kind { allowed } else { nil }
        }
        switch error {
        case let problem as RequestProblem:
            switch problem.kind {
            case .malformed, .notHTTP, .badQuery: status = .badRequest
            case .headersTooLarge: status = .requestHeaderFieldsTooLarge
            case .unsupportedMediaType, .notUTF8JSON: status = .unsupportedMediaType
            case .crossSiteForm: status = .forbidden
            case .tooLarge: status = .contentTooLarge
            case .noSuchRoute: status = .notFound
            case .methodNotAllowed: status = .methodNotAllowed
            case .monitoringOnly: status = .forbidden
            }
            code = problem.code
            message = problem.message(language)
            retryAfterSeconds = nil
        case is RequestTimedOut:
            status = .serviceUnavailable
            code = "request_timeout"
            message =
                language == .korean
                ? "요청이 제한 시간을 넘었습니다. 처리가 아직 끝나지 않았을 수 있으니 결과를 확인한 뒤 다시 시도하세요."
                : "The request took too long; it may still take effect, so check before trying again."
            retryAfterSeconds = 1
        case let limited as ClientLimitExceeded:
            status = .tooManyRequests
            code = AccountError.tooManyAttempts(retryAfterSeconds: limited.retryAfterSeconds).code
            message = limited.message(language)
            retryAfterSeconds = limited.retryAfterSeconds
        case let busy as ServerBusy:
            status = .serviceUnavailable
            code = "server_busy"
            message =
                language == .korean
                ? "서버가 바쁩니다. 잠시 후 다시 시도하세요." : "The server is busy; try again in a moment."
            retryAfterSeconds = busy.retryAfterSeconds
        case let full as StoreDiskFull:
            status = .serviceUnavailable
            code = "store_disk_full"
            let free = full.availableBytes >> 20
            let minimum = full.minimumFreeBytes >> 20
            switch (language, full.detailed) {
            case (.korean, true):
                message =
                    "저장소 디스크의 남은 공간(\(free) MiB)이 server.health_min_free_mib(\(minimum) MiB)보다 적습니다. 가입과 로그인이 실패할 수 있습니다."
            case (.korean, false):
                message = "저장소 디스크의 남은 공간이 server.health_min_free_mib 보다 적습니다. 가입과 로그인이 실패할 수 있습니다."
            case (_, true):
                message =
                    "The store's disk has \(free) MiB free, under server.health_min_free_mib (\(minimum) MiB): sign-ups and logins may fail."
            case (_, false):
                message =
                    "The store's disk has less free space than server.health_min_free_mib: sign-ups and logins may fail."
            }
            retryAfterSeconds = full.retryAfterSeconds
        case let account as AccountError:
            var (status, retryAfter) = Self.status(of: account)
            code = account.code
            message =
                switch account {
                // A busy store's detail names its file and the engine's words, as a failed one's.
                case .storeBusy: Self.busyMessage(language)
                case _ where status == .internalServerError: Self.internalMessage(language)
                default: account.message(language)
                }
            // Strapi answers a taken email and wrong credentials with 400, and its clients
            // expect that; the native API says 409 and 401.
            if style == .strapi, account == .emailTaken || account == .invalidCredentials { status = .badRequest }
            // Strapi answers a wrong current password with 400 ("The provided current password
            // is invalid"); the native API's 403 keeps 401 for a session that is gone.
            if style == .strapi, case .wrongPassword = account { status = .badRequest }
            // Strapi answers a blocked user's login with 400 ("Your account has been blocked by
            // an administrator").
            if style == .strapi,
                account == .accountBlocked || account == .passwordChangeRequired || account == .emailNotVerified
            {
                status = .badRequest
            }
            self.status = status
            retryAfterSeconds = retryAfter
        default:
            status = .internalServerError
            code = "internal_error"
            message = Self.internalMessage(language)
            retryAfterSeconds = nil
        }
        if case .storeBusy? = error as? AccountError {
            hidesCause = true
        } else {
            hidesCause = status == .internalServerError
        }
    }

    static func status(of error: AccountError) -> (HTTPResponse.Status, Int64?) {
        switch error {
        case .invalidEmail, .invalidPassword, .weakPassword, .passwordMismatch, .invalidNickname, .invalidDeviceName,
            .invalidCode, .providerFlowInvalid:
            (.badRequest, nil)
        case .emailTaken, .identityTaken, .identityNotLinked, .lastWayIn: (.conflict, nil)
        case .invalidCredentials, .notSignedIn, .sessionExpired: (.unauthorized, nil)
        case .wrongPassword, .accountBlocked, .passwordChangeRequired, .emailNotVerified, .providerEmailUnverified:
            (.forbidden, nil)
        case .sessionNotFound, .identityNotFound: (.notFound, nil)
        case .providerFailed: (.badGateway, nil)
        case .tooManyAttempts(let seconds): (.tooManyRequests, max(1, seconds))
        case .storeBusy: (.serviceUnavailable, 1)
        default: (.internalServerError, nil)
        }
    }

    static func busyMessage(_ language: Language) -> String {
        language == .korean
            ? "서버 저장소가 다른 작업으로 바쁩니다. 잠시 후 다시 시도하세요."
            : "The server's store is busy with other work; try again shortly."
    }

    static func internalMessage(_ language: Language) -> String {
        language == .korean
            ? "서버 저장소에 오류가 발생했습니다. 자세한 내용은 서버 로그에 있습니다."
            : "The server's store failed; the details are in the server's log."
    }

    /// Strapi's error names for the statuses it uses.
    var strapiName: String {
        switch status {
        case .badRequest, .conflict:
            code == "email_taken" ? "ApplicationError" : "ValidationError"
        case .unauthorized: "UnauthorizedError"
        case .tooManyRequests: "RateLimitError"
        case .contentTooLarge: "PayloadTooLargeError"
        case .requestHeaderFieldsTooLarge: "RequestHeaderFieldsTooLargeError"
        case .unsupportedMediaType: "UnsupportedMediaTypeError"
        case .notFound: "NotFoundError"
        case .methodNotAllowed: "MethodNotAllowedError"
        case .forbidden: "ForbiddenError"
        case .serviceUnavailable: "ServiceUnavailableError"
        default: "InternalServerError"
        }
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields.jsonAnswer
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if let allowedMethods { headers[.allow] = allowedMethods.joined(separator: ", ") }
        let body: JSONValue =
            switch style {
            case .native: APIBody.failure(code: code, message: message, fieldProblems: fieldProblems)
            case .strapi:
                APIBody.strapiFailure(
                    status: Int(status.code), name: strapiName, message: message, code: code,
                    fieldProblems: fieldProblems)
            }
        return Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body.serialized())))
    }
}
