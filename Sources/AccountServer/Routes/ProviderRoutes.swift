import AccountCore
import AccountJSON
import AccountProviders
import AccountServerSettings
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore

extension AccountAPI {
    /// The cookie that carries a provider sign-in from its start to its callback: `HttpOnly`,
    /// `SameSite=Lax` (the provider's redirect back is a top-level navigation from another
    /// site, which a `Strict` cookie would miss), ten minutes; `__Host-` and `Secure` when the
    /// public address is HTTPS.
    var providerFlowCookieName: String { (providerCookiesSecure ? "__Host-" : "") + "accounts_provider_flow" }

    private var providerCookiesSecure: Bool { providers.publicURL.hasPrefix("https://") }

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
                let flow = ProviderFlow(
                    provider: provider.name, purpose: query.link ? .link : .signIn, userID: userID,
                    remember: query.remember, at: clock.now(), random: random)
                let location = try await provider.authorizationURL(
                    state: flow.state, codeChallenge: flow.codeChallenge(key: serverKey),
                    nonce: flow.nonce(key: serverKey),
                    redirectURI: providers.redirectURI(provider.name))
                var response = Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
                response.setCookie(
                    providerFlowCookie(flow.cookieValue(key: serverKey), maxAge: Int(ProviderFlow.lifetimeSeconds)))
                return response
            }
        }
        // The provider sends the client back here with a code (or an error) and the state.
        group.getWithHead("providers/:name/callback") { request, context in
            var response: Response
            do {
                response = try await callback(request, context)
            } catch let failure as APIFailure {
                response = try failure.response(from: request, context: context)
            }
            // A flow is used once, whatever its end.
            response.setCookie(providerFlowCookie("", maxAge: 0))
            return response
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

    /// The callback's answer: the session a sign-in opened, or the identity a link made.
    private func callback(_ request: Request, _ context: some AccountRoutesContext) async throws -> Response {
        let service = service
        return try await respond(request, context, style: .native) { _ in
            let provider = try provider(context)
            let query = ProviderCallbackQuery(request.uri)
            let cookies = RequestCookies(request, names: [providerFlowCookieName])
            let flow = try ProviderFlow.resume(
                cookie: cookies[providerFlowCookieName], provider: provider.name, state: query.state,
                key: serverKey, at: clock.now())
            if let error = query.error {
                throw AccountError.providerFlowInvalid(reason: "the provider answered \(error)")
            }
            guard let code = query.code else {
                throw AccountError.providerFlowInvalid(reason: "the provider sent no code")
            }
            let profile = try await provider.profile(
                code: code, codeVerifier: flow.codeVerifier(key: serverKey), nonce: flow.nonce(key: serverKey),
                redirectURI: providers.redirectURI(provider.name))
            switch flow.purpose {
            case .signIn:
                let session = try await service.identities.signIn(
                    with: profile, remember: flow.remember, device: deviceName(request, given: nil))
                return json(APIBody.session(session, deviceToken: deviceTokens.issue(for: session.profile)))
            case .link:
                let token = bearerToken(request)
                let signedIn = try await service.sessions.whoami(token: token, touching: false)
                guard signedIn.id == flow.userID else {
                    throw AccountError.providerFlowInvalid(reason: "the link was started by another account")
                }
                let identity = try await service.identities.link(profile, token: token)
                return json(.object([("identity", APIBody.identity(identity)), ("ok", .bool(true))]))
            }
        }
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
