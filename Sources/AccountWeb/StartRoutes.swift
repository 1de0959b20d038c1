import AccountCore
import AccountServer
import Hummingbird
import NIOCore

extension AccountWebPages {
    /// The paths `/language` may send the browser back to (never another site).
    static let pagePaths: Set<String> = ["/", "/signup", "/login", "/welcome", "/password", "/withdraw", "/sessions"]

    /// Start (a member goes on to welcome, a guest chooses sign-up or login), welcome, the
    /// language switch and the assets.
    func addStartRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        group.getWithHead("/") { request, context in
            let visit = visit(of: request)
            do {
                switch try await service.sessions.start(token: visit.sessionToken) {
                case .member: return redirect("/welcome")
                case .guest(let expired):
                    let text = visit.text
                    let notice = text.notice(
                        expired ? "session_expired" : request.uri.queryParameters["notice"].map(String.init))
                    var values = visit.pageValues(title: text.startTitle, path: "/", notice: notice)
                    values["lead"] = notice == nil ? text.startLead : text.startLeadAfterNotice
                    values["signUp"] = text.signUp
                    values["logIn"] = text.logIn
                    let clear = visit.sessionToken == nil ? [] : [cookies.clearedSession()]
                    return page("start", values, visit: visit, cookies: clear)
                }
            } catch {
                return storeFailurePage(error, visit: visit, context: context)
            }
        }
        group.getWithHead("welcome") { request, context in
            let visit = visit(of: request)
            do {
                let profile: AccountProfile
                switch try await member(visit) {
                case .success(let found): profile = found
                case .failure(let redirect): return response(for: redirect)
                }
                let text = visit.text
                let notice = text.notice(request.uri.queryParameters["notice"].map(String.init))
                var values = visit.pageValues(title: profile.welcome(visit.language), path: "/welcome", notice: notice)
                values["signedInAs"] = text.signedInAs(profile.email)
                values["logOut"] = text.logOut
                values["changePassword"] = text.changePassword
                values["withdraw"] = text.withdraw
                values["sessions"] = text.sessionsTitle
                return page("welcome", values, visit: visit)
            } catch {
                return storeFailurePage(error, visit: visit, context: context)
            }
        }
        group.getWithHead("language") { request, _ in
            let language = request.uri.queryParameters["to"].flatMap { Language(rawValue: String($0)) } ?? .english
            let back = request.uri.queryParameters["back"].map(String.init) ?? "/"
            return redirect(Self.pagePaths.contains(back) ? back : "/", cookies: [cookies.language(language)])
        }
        group.getWithHead("assets/app.css") { _, _ in
            asset(WebAssets.styleSheet, type: "text/css; charset=utf-8")
        }
        group.getWithHead("assets/app.js") { _, _ in
            asset(WebAssets.script, type: "text/javascript; charset=utf-8")
        }
    }

    func storeFailurePage(_ error: any Error, visit: WebVisit, context: some RequestContext) -> Response {
        let failure = failure(error, visit: visit, context: context)
        return messagePage(
            title: visit.text.errorTitle, message: failure.message, visit: visit, status: failure.status,
            retryAfter: failure.retryAfterSeconds)
    }

    private func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=300"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
