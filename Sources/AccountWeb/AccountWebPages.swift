import AccountCore
public import AccountServer
import AccountServerSettings
import Foundation
import HTTPTypes
public import Hummingbird
import Logging
import NIOCore

/// The apps' screens as web pages, served beside the API by `accounts serve`: start, sign-up,
/// welcome ("{nickname} 님 환영합니다."), login with "remember me", change password and
/// withdrawal.
///
/// Server-rendered forms that work without JavaScript; `/assets/app.js` only adds live checks.
/// The pages share the API's service, per-client limits and hashing queue:
///
/// ```swift
/// let api = AccountAPI(service: service, backendName: "sqlite")
/// let pages = try AccountWebPages(api: api)
/// pages.addRoutes(to: router)
/// api.addRoutes(to: router)
/// ```
///
/// Sessions live in an `HttpOnly`, `SameSite=Lax` cookie holding the same revocable token the
/// API hands out; every form that changes something carries a form token signed with the
/// server's key (the `serverKey` given to `AccountAPI`).
public struct AccountWebPages: Sendable {
    let api: AccountAPI
    let cookies: WebCookies
    let forms: FormToken
    let renderer: PageRenderer

    /// - Parameter api: the routes whose service, limits, hashing queue and settings the pages
    ///   share. Every cookie is `Secure` when the server speaks HTTPS itself or
    ///   `server.secure_cookies` says people reach it over HTTPS (a TLS proxy in front), so a
    ///   session cookie never travels in clear; a plain-HTTP site on loopback (development,
    ///   tests) could not keep a `Secure` cookie, so it is off by default.
    public init(api: AccountAPI) throws {
        self.api = api
        cookies = WebCookies(secure: api.settings.secureCookies || api.settings.tls != nil)
        forms = FormToken(key: api.serverKey)
        renderer = try PageRenderer()
    }

    var service: AccountService { api.service }

    /// Adds the pages (`/`, `/signup`, `/login`, `/welcome`, `/password`, `/withdraw`,
    /// `/logout`, `/language`, `/forgot-password`, `/reset-password`, `/verify-email`) and their assets to `router`, behind the security headers, and
    /// an HTML "page not found" for a browser's `GET` of any unknown path. Add them before the
    /// API's routes, so a known path asked with the wrong method still gets the API's 405.
    ///
    /// - Parameters:
    ///   - router: the router to add the pages to.
    ///   - notFoundPage: add the "page not found" as a middleware. It then wraps every route
    ///     added after it, the API's included; `AccountServerApplication` passes `false` and
    ///     hands ``notFoundPage(for:)`` to the API's own answer for unknown paths instead,
    ///     which only requests no route takes pass through.
    public func addRoutes<Context: AccountRoutesContext>(to router: Router<Context>, notFoundPage: Bool = true) {
        if notFoundPage { router.add(middleware: PageNotFoundMiddleware<Context>(pages: self)) }
        let group = router.group().add(middleware: SecurityHeadersMiddleware<Context>())
            .add(middleware: RepeatedCookieMiddleware<Context>(pages: self))
        addStartRoutes(to: group)
        addSignUpRoutes(to: group)
        addLoginRoutes(to: group)
        addSignedInRoutes(to: group)
        addSessionRoutes(to: group)
        addRecoveryRoutes(to: group)
        addProviderRoutes(to: group)
    }

    /// The HTML "page not found" (in the browser's language, with a way back to the start) for
    /// a browser's `GET` (one that accepts `text/html`); `nil` for any other request, which
    /// keeps the API's JSON 404.
    public func notFoundPage(for request: Request) -> Response? {
        guard request.method == .get, request.headers[.accept]?.contains("text/html") == true else { return nil }
        let visit = visit(of: request)
        var response = messagePage(
            title: visit.text.notFoundTitle, message: visit.text.notFoundMessage, visit: visit, status: .notFound)
        SecurityHeadersMiddleware<BasicRequestContext>.apply(to: &response)
        return response
    }

    /// The browser asking, as its cookies say.
    func visit(of request: Request) -> WebVisit {
        WebVisit(request, cookies: cookies, forms: forms)
    }

    // MARK: - Responses

    /// The page of one form, titled `title`. A form posts to the page it is on, so the page's
    /// path (for its language links) is the form's action.
    func formPage(
        _ form: FormModel, title: String, formError: String?, visit: WebVisit, status: HTTPResponse.Status,
        retryAfter: Int64?
    ) -> Response {
        let values = form.values(into: visit.pageValues(title: title, path: form.action, formError: formError))
        return page("form", values, visit: visit, status: status, retryAfter: retryAfter)
    }

    /// A rendered page; sets the form token cookie when the browser had none.
    func page(
        _ template: String, _ values: [String: Any], visit: WebVisit, status: HTTPResponse.Status = .ok,
        cookies extra: [Cookie] = [], retryAfter: Int64? = nil
    ) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        var response = Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: renderer.render(template, values))))
        if visit.issuesFormToken { response.setCookie(cookies.formToken(visit.formNonce)) }
        for cookie in extra { response.setCookie(cookie) }
        return response
    }

    /// `303 See Other` to `location` (after a form post, so a reload does not post again).
    func redirect(_ location: String, cookies extra: [Cookie] = []) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        for cookie in extra { response.setCookie(cookie) }
        return response
    }

    /// The cookies of a browser that just signed in: the session, and the device token of the
    /// account (the device's id kept when it had one for the same account).
    func signedInCookies(_ signedIn: SignedInSession, remember: Bool, visit: WebVisit) -> [Cookie] {
        [
            cookies.session(signedIn, remember: remember),
            cookies.device(api.deviceTokens.issue(for: signedIn.profile, current: visit.deviceToken)),
        ]
    }

    /// A page that only says what went wrong, with a way back to the start.
    func messagePage(
        title: String, message: String, visit: WebVisit, status: HTTPResponse.Status, retryAfter: Int64? = nil
    ) -> Response {
        var values = visit.pageValues(title: title, path: "/", formError: message)
        values["startLink"] = visit.text.startLink
        return page("message", values, visit: visit, status: status, retryAfter: retryAfter)
    }

    /// An error as the person sees it: the API's status and message (the wait included for a
    /// limit; never a store's internals, which go to the log).
    func failure(_ error: any Error, visit: WebVisit, context: some RequestContext) -> APIFailure {
        let failure = APIFailure(error, language: visit.language, style: .native)
        if failure.hidesCause {
            let cause = (error as? AccountError)?.message(.english) ?? String(describing: type(of: error))
            context.logger.error(
                "page request failed", metadata: ["code": .string(failure.code), "cause": .string(cause)])
        }
        return failure
    }

    /// Refuses a form another site posted, then reads the form and checks its form token; a
    /// form that cannot be read or carries the wrong token gets a page saying nothing was
    /// changed.
    func postedForm(_ request: Request, visit: WebVisit) async -> Result<FormBody, FormRejection> {
        if CrossSiteRequest.isCrossSite(request) {
            return .failure(FormRejection(status: .forbidden, message: visit.text.crossSiteForm))
        }
        let form: FormBody
        do {
            form = try await FormBody.read(request, limit: api.maxBodyBytes)
        } catch FormProblem.tooLarge {
            return .failure(FormRejection(status: .contentTooLarge, message: visit.text.unreadableForm))
        } catch FormProblem.cutShort {
            return .failure(FormRejection(status: .badRequest, message: visit.text.unreadableForm))
        } catch {
            return .failure(FormRejection(status: .unsupportedMediaType, message: visit.text.unreadableForm))
        }
        guard visit.accepts(form) else {
            return .failure(FormRejection(status: .forbidden, message: visit.text.staleForm))
        }
        return .success(form)
    }

    /// Runs `body` with a posted form that carries this browser's form token; any other post
    /// gets a page saying nothing was changed.
    func posted(
        _ request: Request, _ body: (FormBody, WebVisit) async throws -> Response
    ) async throws -> Response {
        let visit = visit(of: request)
        switch await postedForm(request, visit: visit) {
        case .success(let form): return try await body(form, visit)
        case .failure(let rejection): return rejectionPage(rejection, visit: visit)
        }
    }

    func rejectionPage(_ rejection: FormRejection, visit: WebVisit) -> Response {
        messagePage(title: visit.text.errorTitle, message: rejection.message, visit: visit, status: rejection.status)
    }

    /// The signed-in member, or where to send the browser instead (the start screen, saying
    /// when the session expired).
    func member(_ visit: WebVisit) async throws -> Result<AccountProfile, Redirect> {
        switch try await service.sessions.start(token: visit.sessionToken) {
        case .member(let profile): return .success(profile)
        case .guest(let expired):
            return .failure(Redirect(location: expired ? "/?notice=session_expired" : "/", clearsSession: true))
        }
    }

    func response(for redirect: Redirect) -> Response {
        self.redirect(redirect.location, cookies: redirect.clearsSession ? [cookies.clearedSession()] : [])
    }

    /// The answer of a live check: `{"valid":…,"fields":{"name":["message",…]}}`.
    func checkAnswer(valid: Bool, fields: [String: [String]]) -> Response {
        struct Answer: Encodable {
            let valid: Bool
            let fields: [String: [String]]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(Answer(valid: valid, fields: fields))) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// A posted form turned away before anything was tried.
struct FormRejection: Error {
    let status: HTTPResponse.Status
    let message: String
}

/// Where a page sends a browser that may not see it.
struct Redirect: Error {
    let location: String
    let clearsSession: Bool
}
