import AccountCore
import AccountJSON
import Hummingbird

extension AccountAPI {
    /// The new password's fields as the native reset route names them.
    static let resetPasswordFields: [NewPasswordField: String] = [
        .newPassword: "password", .confirmation: "confirmation",
    ]

    /// `/v1/password/forgot`, `/v1/password/reset`, `/v1/email/verify` and
    /// `/v1/email/verify/resend`. A request answers `{"ok":true}` whether an account holds the
    /// address or not, after the same work (one queued mail); the per-client limit of
    /// password checks counts requests and codes alike.
    func addNativeRecoveryRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        let recovery = recovery
        group.post("password/forgot") { request, context in
            try await respond(request, context, style: .native) { language in
                let body = try await decode(MailRequestBody.self, from: request)
                try await limited(.passwordCheck, request, context) {
                    try await recovery.requestPasswordReset(email: body.email, language: language)
                }
                return json(APIBody.done)
            }
        }
        group.post("password/reset") { request, context in
            try await respond(request, context, style: .native) { _ in
                let body = try await decode(ResetPasswordBody.self, from: request)
                let device = deviceName(request, given: body.deviceName)
                let session = try await limited(.passwordCheck, request, context) {
                    try await InvalidFields.naming(Self.resetPasswordFields) {
                        try await recovery.resetPassword(
                            code: body.code, password: body.password, confirmation: body.confirmation ?? body.password,
                            remember: body.remember ?? false, device: device)
                    }
                }
                return json(APIBody.session(session, deviceToken: deviceTokens.issue(for: session.profile)))
            }
        }
        group.post("email/verify") { request, context in
            try await respond(request, context, style: .native) { _ in
                let body = try await decode(VerifyEmailBody.self, from: request)
                let profile = try await limited(.passwordCheck, request, context) {
                    try await recovery.verifyEmail(code: body.code)
                }
                return json(.object([("ok", .bool(true)), ("user", APIBody.user(profile))]))
            }
        }
        group.post("email/verify/resend") { request, context in
            try await respond(request, context, style: .native) { language in
                let token = bearerToken(request)
                try await limited(.passwordCheck, request, context) {
                    try await recovery.requestEmailVerification(token: token, language: language)
                }
                return json(APIBody.done)
            }
        }
    }

    /// Strapi's recovery routes, in its shapes: `forgot-password` → `{ok:true}`,
    /// `reset-password` → `{jwt, user}`, `email-confirmation?confirmation=` and
    /// `send-email-confirmation` → `{email, sent:true}`.
    func addStrapiRecoveryRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        let recovery = recovery
        let proofRequired = service.requireVerifiedEmail
        group.post("auth/forgot-password") { request, context in
            try await respond(request, context, style: .strapi) { language in
                let body = try await decode(MailRequestBody.self, from: request, forms: true)
                try await limited(.passwordCheck, request, context) {
                    try await recovery.requestPasswordReset(email: body.email, language: language)
                }
                return json(APIBody.done)
            }
        }
        group.post("auth/reset-password") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                let body = try await decode(StrapiResetPasswordBody.self, from: request, forms: true)
                let device = deviceName(request, given: nil)
                let session = try await limited(.passwordCheck, request, context) {
                    try await InvalidFields.naming(Self.strapiNewPasswordFields) {
                        try await recovery.resetPassword(
                            code: body.code, password: body.password, confirmation: body.passwordConfirmation,
                            device: device)
                    }
                }
                return json(
                    APIBody.strapiAuth(
                        session, proofRequired: proofRequired,
                        deviceToken: deviceTokens.issue(for: session.profile)))
            }
        }
        group.getWithHead("auth/email-confirmation") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                guard let code = request.uri.queryParameters.get("confirmation") else {
                    throw RequestProblem(kind: .malformed(.missing(field: "confirmation")))
                }
                let profile = try await limited(.passwordCheck, request, context) {
                    try await recovery.verifyEmail(code: code)
                }
                return json(APIBody.strapiUser(profile, proofRequired: proofRequired))
            }
        }
        group.post("auth/send-email-confirmation") { request, context in
            try await respond(request, context, style: .strapi) { language in
                let body = try await decode(MailRequestBody.self, from: request, forms: true)
                try await limited(.passwordCheck, request, context) {
                    try await recovery.requestEmailVerification(email: body.email, language: language)
                }
                return json(.object([("email", .string(body.email)), ("sent", .bool(true))]))
            }
        }
    }
}
