import AccountCore
import AccountProviders
import AccountServer
import Hummingbird

extension AccountWebPages {
    /// "Sign in with …" on the login page: `/providers/NAME/start` sends the browser to the
    /// provider; the provider's callback (`/v1/providers/NAME/callback`) sends it on to
    /// `/providers/NAME/finish` with a one-minute ticket in a cookie, which becomes the
    /// session's cookie here, or with the error's code, which the login page explains.
    func addProviderRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        group.getWithHead("providers/:name/start") { request, context in
            guard let name = context.parameters.get("name"), let provider = api.providers.byName[name] else {
                return notFoundPage(for: request) ?? Response(status: .notFound)
            }
            do {
                return try await api.startFlow(provider, purpose: .web, remember: false)
            } catch {
                return providerFailure(error, visit: visit(of: request), context: context)
            }
        }
        group.getWithHead(RouterPath(String(AccountAPI.webFinishPath(":name").dropFirst()))) {
            request, context in
            let visit = visit(of: request)
            guard let name = context.parameters.get("name"), api.providers.byName[name] != nil else {
                return notFoundPage(for: request) ?? Response(status: .notFound)
            }
            // The ticket comes only from this browser's cookie, which the callback set: never
            // from the address, which anyone can send anyone.
            let cleared = api.providerTicketCookie("", maxAge: 0)
            let ticketName = api.providerTicketCookieName
            guard let ticket = RequestCookies(request, names: [ticketName])[ticketName], !ticket.isEmpty else {
                var page = providerFailure(
                    Self.error(code: request.uri.queryParameters.get("error")), visit: visit, context: context)
                page.setCookie(cleared)
                return page
            }
            do {
                let signedIn = try await service.identities.redeem(
                    ticket: ticket, device: DeviceName.describing(userAgent: request.headers[.userAgent]))
                return redirect(
                    "/welcome", cookies: signedInCookies(signedIn, remember: false, visit: visit) + [cleared])
            } catch {
                var page = providerFailure(error, visit: visit, context: context)
                page.setCookie(cleared)
                return page
            }
        }
    }

    /// The login page, saying why a provider sign-in did not sign in.
    private func providerFailure(_ error: any Error, visit: WebVisit, context: some RequestContext) -> Response {
        let failure = failure(error, visit: visit, context: context)
        var entry = LoginEntry()
        entry.formError = failure.message
        return loginPage(entry, visit: visit, status: failure.status)
    }

    /// The error a callback named by its code (only the provider flow's own; anything else is
    /// a flow to start again).
    static func error(code: String?) -> AccountError {
        let known: [AccountError] = [
            .identityNotLinked, .providerEmailUnverified, .accountBlocked, .emailNotVerified, .identityTaken,
        ]
        return known.first { $0.code == code } ?? .providerFlowInvalid(reason: "the provider did not sign you in")
    }
}
