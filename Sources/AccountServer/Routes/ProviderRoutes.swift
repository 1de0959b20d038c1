package import AccountCore
import AccountJSON
package import AccountProviders
import AccountServerSettings
import Foundation
import HTTPTypes
package import Hummingbird
import HummingbirdCore

extension AccountAPI {
    /// The cookie that carries a provider sign-in from its start to its callback: `HttpOnly`,
    /// `SameSite=Lax` (the provider's redirect back is a top-level navigation from another
    /// site, which a `Strict` cookie would miss), ten minutes; `__Host-` and `Secure` when the
    /// public address is HTTPS.
    var providerFlowCookieName: String { (providerCookiesSecure ? "__Host-" : "") + "accounts_provider_flow" }

    private var providerCookiesSecure: Bool { providers.publicURL.hasPrefix("https://") }

    /// The cookie that carries a web sign-in's ticket from the callback to the pages' finish
    /// (`HttpOnly`, `SameSite=Lax`: the callback is reached from the provider's site).
    package var providerTicketCookieName: String {
        (providerCookiesSecure ? "__Host-" : "") + "accounts_provider_ticket"
    }

    /// The ticket's cookie; an empty value and no age remove it.
    package func providerTicketCookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: providerTicketCookieName, value: value,
            expires: maxAge == 0 ? Date(timeIntervalSince1970: 0) : nil, maxAge: maxAge, path: "/",
            secure: providerCookiesSecure, httpOnly: true, sameSite: .lax)
    }

    private func providerFlowCookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: providerFlowCookieName, value: value, expires: maxAge == 0 ? Date(timeIntervalSince1970: 0) : nil,
            maxAge: maxAge, path: "/", secure: providerCookiesSecure, httpOnly: true, sameSite: .lax)
    }

    /// `/v1/providers…` and `/v1/identities…`: signing in with an outside provider, and the
    /// identities linked to the signed-in account.
    func addProviderRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        let service = service
        // The configured providers, for sign-in buttons.
        group.getWithHead("providers") { request, context in
            try await respond(request, context, style: .native) { _ in
                let list = providers.byName.values.map(\.settings).sorted { $0.name < $1.name }.map {
                    JSONValue.object([
                        ("display_name", .string($0.displayName)), ("name", .string($0.name)),
                        ("type", .string($0.kind.rawValue)),
                    ])
                }
                return json(.object([("ok", .bool(true)), ("providers", .array(list))]))
            }
        }
        // Sends the client to the provider, with this flow in its cookie. `link=true` (with the
        // session's token) links the identity to the signed-in account instead of signing in.
        group.getWithHead("providers/:name/start") { request, context in
            try await respond(request, context, style: .native) { _ in
                let provider = try provider(context)
                let query = try ProviderStartQuery(request.uri)
                var userID: UserID?
                if query.link {
                    userID = try await service.sessions.whoami(token: bearerToken(request), touching: false).id
                }
                return try await startFlow(
                    provider, purpose: query.link ? .link : .signIn, userID: userID, remember: query.remember)
            }
        }
        // The provider sends the client back here with a code (or an error) and the state.
        group.getWithHead("providers/:name/callback") { request, context in
            try await finish(request, context)
        }
        group.getWithHead("identities") { request, context in
            try await respond(request, context, style: .native) { _ in
                let identities = try await service.identities.list(token: bearerToken(request))
                return json(.object([("identities", .array(identities.map(APIBody.identity))), ("ok", .bool(true))]))
            }
        }
        group.delete("identities/:provider/:subject") { request, context in
            try await respond(request, context, style: .native) { _ in
                try await service.identities.unlink(
                    provider: context.parameters.get("provider") ?? "",
                    subject: context.parameters.get("subject") ?? "",
                    token: bearerToken(request))
                return json(APIBody.done)
            }
        }
    }

    /// Answers a provider's callback, and clears the flow's cookie whatever the answer: a flow
    /// is used once.
    func finish(_ request: Request, _ context: some AccountRoutesContext) async throws -> Response {
        var response: Response
        do {
            response = try await callback(request, context)
        } catch let failure as APIFailure {
            response = try failure.response(from: request, context: context)
        }
        response.setCookie(providerFlowCookie("", maxAge: 0))
        return response
    }

    /// Sends the client to `provider` for a new flow of `purpose`, with the flow in its cookie.
    package func startFlow(
        _ provider: any SignInProvider, purpose: ProviderFlow.Purpose, userID: UserID? = nil, remember: Bool
    ) async throws -> Response {
        let flow = ProviderFlow(
            provider: provider.name, purpose: purpose, userID: userID, remember: remember, at: clock.now(),
            random: random)
        let location = try await provider.authorizationURL(
            state: flow.state, codeChallenge: flow.codeChallenge(key: serverKey), nonce: flow.nonce(key: serverKey),
            redirectURI: providers.redirectURI(provider.name, purpose: purpose))
        var response = Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
        response.setCookie(
            providerFlowCookie(flow.cookieValue(key: serverKey), maxAge: Int(ProviderFlow.lifetimeSeconds)))
        return response
    }

    /// Where the web pages finish a provider sign-in: they trade `ticket` for the session's
    /// cookie, or show `error` (a code) on the sign-in page.
    package static func webFinishPath(_ provider: String) -> String { "/providers/\(provider)/finish" }

    /// The callback's answer: the session a sign-in opened, the identity a link made, or a
    /// redirect with a ticket to where a Strapi app's or the web pages' sign-in ends.
    private func callback(_ request: Request, _ context: some AccountRoutesContext) async throws -> Response {
        let service = service
        return try await respond(request, context, style: .native) { _ in
            let provider = try provider(context)
            let query = ProviderCallbackQuery(request.uri)
            let cookies = RequestCookies(request, names: [providerFlowCookieName])
            let flow = try ProviderFlow.resume(
                cookie: cookies[providerFlowCookieName], provider: provider.name, state: query.state,
                key: serverKey, at: clock.now())
            let redirectURI = providers.redirectURI(provider.name, purpose: flow.purpose)
            switch flow.purpose {
            case .signIn:
                let profile = try await profile(provider, query, flow, redirectURI)
                let session = try await service.identities.signIn(
                    with: profile, remember: flow.remember, device: deviceName(request, given: nil))
                return json(APIBody.session(session, deviceToken: deviceTokens.issue(for: session.profile)))
            case .link:
                let profile = try await profile(provider, query, flow, redirectURI)
                let token = bearerToken(request)
                let signedIn = try await service.sessions.whoami(token: token, touching: false)
                guard signedIn.id == flow.userID else {
                    throw AccountError.providerFlowInvalid(reason: "the link was started by another account")
                }
                let identity = try await service.identities.link(profile, token: token)
                return json(.object([("identity", APIBody.identity(identity)), ("ok", .bool(true))]))
            case .strapi:
                // The flow ends at the app's page: the ticket, as Strapi's `access_token`, or
                // the error's code go there in the address (an app has no cookie of ours).
                let end = provider.settings.appRedirectURL
                let parameter: (String, String)
                do {
                    let profile = try await profile(provider, query, flow, redirectURI)
                    parameter = ("access_token", try await service.identities.ticket(for: profile))
                } catch let error as AccountError where !error.isStoreFailure {
                    parameter = ("error", error.code)
                }
                let location = end + (end.contains("?") ? "&" : "?") + FormEncoding.encode([parameter])
                return Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
            case .web:
                // The ticket goes in a cookie of this browser, never in the address: a finish
                // link with a ticket in it, sent to someone else, would sign them in to the
                // sender's account.
                var location = Self.webFinishPath(provider.name)
                var ticket: String?
                do {
                    ticket = try await service.identities.ticket(
                        for: try await profile(provider, query, flow, redirectURI))
                } catch let error as AccountError where !error.isStoreFailure {
                    location += "?" + FormEncoding.encode([("error", error.code)])
                }
                var response = Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
                if let ticket {
                    response.setCookie(providerTicketCookie(ticket, maxAge: Int(IdentityService.ticketLifetimeSeconds)))
                }
                return response
            }
        }
    }

    /// Who the provider says signed in, for the callback's code.
    private func profile(
        _ provider: any SignInProvider, _ query: ProviderCallbackQuery, _ flow: ProviderFlow, _ redirectURI: String
    ) async throws -> ProviderProfile {
        if let error = query.error {
            throw AccountError.providerFlowInvalid(reason: "the provider answered \(error)")
        }
        guard let code = query.code else {
            throw AccountError.providerFlowInvalid(reason: "the provider sent no code")
        }
        return try await provider.profile(
            code: code, codeVerifier: flow.codeVerifier(key: serverKey), nonce: flow.nonce(key: serverKey),
            redirectURI: redirectURI)
    }

    /// The provider the path names, or 404 `not_found`.
    private func provider(_ context: some RequestContext) throws -> any SignInProvider {
        guard let name = context.parameters.get("name"), let provider = providers.byName[name] else {
            throw RequestProblem(kind: .noSuchRoute)
        }
        return provider
    }
}

/// `GET /v1/providers/{name}/start`'s query: `remember` and `link`, each `true` or `false`.
struct ProviderStartQuery {
    var remember = false
    var link = false

    init(_ uri: HummingbirdCore.URI) throws {
        for (name, value) in uri.queryParameters {
            let flag: Bool
            switch value {
            case "true": flag = true
            case "false": flag = false
            default: throw RequestProblem(kind: .badQuery(parameter: String(name), allowed: ["true", "false"]))
            }
            switch name {
            case "remember": remember = flag
            case "link": link = flag
            default: throw RequestProblem(kind: .badQuery(parameter: String(name), allowed: ["remember", "link"]))
            }
        }
    }
}

/// The callback's query (RFC 6749 §4.1.2): `code` and `state`, or `error` and `state`. The
/// error is shown only as an OAuth error code (printable ASCII, short).
struct ProviderCallbackQuery {
    var code: String?
    var state: String?
    var error: String?

    init(_ uri: HummingbirdCore.URI) {
        let parameters = uri.queryParameters
        code = parameters.get("code").flatMap { $0.isEmpty || $0.utf8.count > 2048 ? nil : $0 }
        state = parameters.get("state")
        error = parameters.get("error").map { OAuthErrorCode.shown($0) }
    }
}

extension AccountAPI {
    /// Strapi's provider routes: `GET /api/connect/NAME` sends the client to the provider (for a
    /// provider with `app_redirect_url`), the provider comes back to
    /// `/api/connect/NAME/callback`, the flow ends at the app's page with `?access_token=` (a
    /// one-minute ticket, never the provider's token), and `GET /api/auth/NAME/callback
    /// ?access_token=` answers `{jwt, user}` as Strapi's does.
    func addStrapiProviderRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        let service = service
        group.getWithHead("connect/:name") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                let provider = try provider(context)
                guard !provider.settings.appRedirectURL.isEmpty else { throw RequestProblem(kind: .noSuchRoute) }
                return try await startFlow(provider, purpose: .strapi, remember: false)
            }
        }
        group.getWithHead("connect/:name/callback") { request, context in
            try await finish(request, context)
        }
        group.getWithHead("auth/:name/callback") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                _ = try provider(context)
                guard let ticket = request.uri.queryParameters.get("access_token") else {
                    throw RequestProblem(kind: .malformed(.missing(field: "access_token")))
                }
                let session = try await service.identities.redeem(
                    ticket: ticket, device: deviceName(request, given: nil))
                return json(
                    APIBody.strapiAuth(
                        session, proofRequired: service.requireVerifiedEmail,
                        deviceToken: deviceTokens.issue(for: session.profile)))
            }
        }
    }
}
