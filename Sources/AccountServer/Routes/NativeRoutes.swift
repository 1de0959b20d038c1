import AccountCore
import Hummingbird

extension AccountAPI {
    /// `/v1/…`: the native JSON API, with the codes and rules of the CLI.
    func addNativeRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        let service = service
        group.post("signup") { request, context in
            try await respond(request, context, style: .native) { language in
                let body = try await decode(SignUpBody.self, from: request)
                let confirmation = body.confirmation ?? body.password
                let unconfirmed = body.confirmation == nil
                let session = try await limited(.signUp, request, context) {
                    // A confirmation the client left out is the password itself: nothing to list.
                    try await InvalidFields.naming(SignUpField.jsonNames, except: unconfirmed ? .confirmation : nil) {
                        try await service.signUp(
                            email: body.email, password: body.password, confirmation: confirmation,
                            nickname: body.nickname, remember: body.remember ?? false,
                            device: deviceName(request, given: body.deviceName), language: language)
                    }
                }
                return json(
                    APIBody.session(session, deviceToken: deviceTokens.issue(for: session.profile)),
                    status: .created)
            }
        }
        group.post("login") { request, context in
            try await respond(request, context, style: .native) { _ in
                let body = try await decode(LoginBody.self, from: request)
                let origin = loginOrigin(request, context, email: body.email, deviceToken: body.deviceToken)
                let session = try await limited(.login, request, context) {
                    try await InvalidFields.naming(NewPasswordField.jsonNames) {
                        try await service.login(
                            email: body.email, password: body.password, remember: body.remember ?? false,
                            from: origin, device: deviceName(request, given: body.deviceName),
                            replacingTemporaryWith: body.replacement)
                    }
                }
                let deviceToken = deviceTokens.issue(for: session.profile, current: body.deviceToken)
                return json(APIBody.session(session, deviceToken: deviceToken))
            }
        }
        // The session's token for a new one (and, with signed access tokens, a new access
        // token): the old token stops working, and presented again after a short grace it ends
        // every session of its login (RFC 9700 §4.14.2).
        group.post("refresh") { request, context in
            try await respond(request, context, style: .native) { _ in
                let body = try await decode(RefreshBody.self, from: request)
                return json(
                    APIBody.session(try await service.sessions.refresh(token: body.refreshToken), deviceToken: nil))
            }
        }
        group.post("logout") { request, context in
            try await respond(request, context, style: .native) { _ in
                let token = bearerToken(request)
                switch try LogoutScope(request) {
                case .current:
                    try await service.sessions.logout(token: token)
                    return json(APIBody.done)
                case .others: return json(APIBody.revoked(try await service.sessions.revokeOtherSessions(token: token)))
                case .all: return json(APIBody.revoked(try await service.sessions.revokeAllSessions(token: token)))
                }
            }
        }
        group.getWithHead("sessions") { request, context in
            try await respond(request, context, style: .native) { _ in
                json(APIBody.sessions(try await service.sessions.list(token: bearerToken(request))))
            }
        }
        group.delete("sessions/:id") { request, context in
            try await respond(request, context, style: .native) { _ in
                try await service.sessions.revokeSession(
                    token: bearerToken(request), id: context.parameters.get("id") ?? "")
                return json(APIBody.done)
            }
        }
        group.getWithHead("me") { request, context in
            try await respond(request, context, style: .native) { language in
                let profile = try await service.sessions.whoami(token: bearerToken(request))
                return json(APIBody.me(profile, welcome: profile.welcome(language)))
            }
        }
        group.post("password") { request, context in
            try await respond(request, context, style: .native) { _ in
                let body = try await decode(ChangePasswordBody.self, from: request)
                let token = bearerToken(request)
                let origin = clientOrigin(request, context)
                let confirmation = body.confirmation ?? body.newPassword
                let unconfirmed = body.confirmation == nil
                try await limited(.passwordCheck, request, context) {
                    // A confirmation the client left out is the new password itself: nothing to list.
                    try await InvalidFields.naming(
                        NewPasswordField.jsonNames, except: unconfirmed ? .confirmation : nil
                    ) {
                        try await service.changePassword(
                            token: token, currentPassword: body.currentPassword, newPassword: body.newPassword,
                            confirmation: confirmation, from: origin)
                    }
                }
                return json(APIBody.done)
            }
        }
        group.post("withdraw") { request, context in
            try await respond(request, context, style: .native) { _ in
                let body = try await decode(WithdrawBody.self, from: request)
                let token = bearerToken(request)
                let origin = clientOrigin(request, context)
                try await limited(.passwordCheck, request, context) {
                    try await service.withdraw(token: token, password: body.password, from: origin)
                }
                return json(APIBody.done)
            }
        }
    }
}
