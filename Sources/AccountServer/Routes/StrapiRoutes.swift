import AccountCore
import Hummingbird

extension AccountAPI {
    /// The sign-up fields as Strapi's register route names them (it has no confirmation).
    static let strapiRegisterFields: [SignUpField: String] = [
        .email: "email", .nickname: "username", .password: "password",
    ]
    /// The new password's fields as Strapi's change-password route names them.
    static let strapiNewPasswordFields: [NewPasswordField: String] = [
        .newPassword: "password", .confirmation: "passwordConfirmation",
    ]

    /// `/api/…`: the auth routes of Strapi's users-permissions plugin, so a client written for
    /// Strapi works unchanged. AccountStore's rules (the ID rule, password strength, nickname)
    /// still apply; `username` is the nickname and `identifier` the email.
    func addStrapiRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        let service = service
        group.post("auth/local/register") { request, context in
            try await respond(request, context, style: .strapi) { language in
                let body = try await decode(StrapiRegisterBody.self, from: request, forms: true)
                let session = try await limited(.signUp, request, context) {
                    try await InvalidFields.naming(Self.strapiRegisterFields) {
                        try await service.signUp(
                            email: body.email, password: body.password, confirmation: body.password,
                            nickname: body.username, device: deviceName(request, given: nil), language: language)
                    }
                }
                return json(
                    APIBody.strapiAuth(
                        session, proofRequired: service.requireVerifiedEmail,
                        deviceToken: deviceTokens.issue(for: session.profile)))
            }
        }
        group.post("auth/local") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                let body = try await decode(StrapiLoginBody.self, from: request, forms: true)
                let origin = loginOrigin(request, context, email: body.identifier, deviceToken: body.deviceToken)
                let session = try await limited(.login, request, context) {
                    try await service.login(
                        email: body.identifier, password: body.password, remember: false, from: origin,
                        device: deviceName(request, given: body.deviceID))
                }
                return json(
                    APIBody.strapiAuth(
                        session, proofRequired: service.requireVerifiedEmail,
                        deviceToken: deviceTokens.issue(for: session.profile, current: body.deviceToken)))
            }
        }
        group.post("auth/change-password") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                let body = try await decode(StrapiChangePasswordBody.self, from: request, forms: true)
                let token = bearerToken(request)
                let origin = clientOrigin(request, context)
                let profile = try await limited(.passwordCheck, request, context) {
                    try await InvalidFields.naming(Self.strapiNewPasswordFields) {
                        try await service.changePassword(
                            token: token, currentPassword: body.currentPassword, newPassword: body.password,
                            confirmation: body.passwordConfirmation, from: origin)
                    }
                    return try await service.sessions.whoami(token: token)
                }
                // The session used stays valid (every other one is revoked), so it is the new jwt.
                // A signed access token is no refresh token: then none is sent.
                return json(
                    APIBody.strapiAuth(
                        jwt: token ?? "", refreshToken: token.flatMap { SessionService.isAccessToken($0) ? nil : $0 },
                        profile: profile, proofRequired: service.requireVerifiedEmail))
            }
        }
        // Strapi v5's session mode: a refresh trades the token for a new one, and a logout
        // signs out one device (`deviceId`) or every session of the user.
        group.post("auth/refresh") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                let body = try await decode(StrapiRefreshBody.self, from: request, forms: true)
                let session = try await service.sessions.refresh(token: body.refreshToken)
                return json(APIBody.strapiRefresh(session))
            }
        }
        group.post("auth/logout") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                let body = try await decodeIfSent(StrapiLogoutBody.self, from: request, forms: true)
                let token = bearerToken(request)
                if let device = body?.deviceID {
                    try await service.sessions.revokeSessions(token: token, device: device)
                } else {
                    try await service.sessions.revokeAllSessions(token: token)
                }
                return json(APIBody.done)
            }
        }
        group.getWithHead("users/me") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                json(
                    APIBody.strapiUser(
                        try await service.sessions.whoami(token: bearerToken(request)),
                        proofRequired: service.requireVerifiedEmail))
            }
        }
    }
}
