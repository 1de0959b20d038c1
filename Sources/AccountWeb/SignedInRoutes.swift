import AccountCore
import AccountServer
import Hummingbird

extension AccountWebPages {
    /// Logout, change password and withdrawal: each needs the session; a browser without one
    /// goes to the start screen. Logout and withdrawal revoke in the store and clear the cookie.
    func addSignedInRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        group.post("logout") { request, context in
            return try await posted(request) { _, visit in
                do {
                    try await service.sessions.logout(token: visit.sessionToken)
                } catch AccountError.notSignedIn {
                    // Already gone from the store (another tab, an expiry): clearing the cookie is
                    // all that is left to do.
                } catch {
                    return storeFailurePage(error, visit: visit, context: context)
                }
                return redirect("/?notice=logged_out", cookies: [cookies.clearedSession()])
            }
        }
        group.getWithHead("password") { request, context in
            let visit = visit(of: request)
            return try await signedIn(visit, context) { _ in passwordPage(PasswordEntry(), visit: visit) }
        }
        group.post("password") { request, context in
            return try await posted(request) { form, visit in
                return try await signedIn(visit, context) { profile in
                    try await changePassword(form, profile: profile, request: request, context: context, visit: visit)
                }
            }
        }
        group.post("password/check") { request, _ in
            let visit = visit(of: request)
            let form = (try? await FormBody.read(request, limit: api.maxBodyBytes)) ?? FormBody(fields: [:])
            guard case .success(let profile)? = try? await member(visit) else {
                return checkAnswer(valid: true, fields: [:])
            }
            let entry = PasswordEntry(form)
            let check = service.newPasswordProblems(
                for: profile, current: entry.current, newPassword: entry.new, confirmation: entry.confirmation)
            return checkAnswer(
                valid: check.isValid,
                fields: [
                    "new": check[.newPassword].map { $0.message(visit.language) },
                    "confirmation": check[.confirmation].map { $0.message(visit.language) },
                ])
        }
        group.getWithHead("withdraw") { request, context in
            let visit = visit(of: request)
            return try await signedIn(visit, context) { _ in withdrawPage(WithdrawEntry(), visit: visit) }
        }
        group.post("withdraw") { request, context in
            return try await posted(request) { form, visit in
                return try await signedIn(visit, context) { _ in
                    try await withdraw(form, request: request, context: context, visit: visit)
                }
            }
        }
    }

    /// Runs `body` for the signed-in member; sends anyone else to the start screen.
    private func signedIn(
        _ visit: WebVisit, _ context: some RequestContext, _ body: (AccountProfile) async throws -> Response
    ) async throws -> Response {
        do {
            switch try await member(visit) {
            case .success(let profile): return try await body(profile)
            case .failure(let redirect): return response(for: redirect)
            }
        } catch {
            return storeFailurePage(error, visit: visit, context: context)
        }
    }

    private func changePassword(
        _ form: FormBody, profile: AccountProfile, request: Request, context: some AccountRoutesContext,
        visit: WebVisit
    ) async throws -> Response {
        var entry = PasswordEntry(form)
        let check = service.newPasswordProblems(
            for: profile, current: entry.current, newPassword: entry.new, confirmation: entry.confirmation)
        if !check.isValid || entry.current.isEmpty {
            entry.currentErrors = entry.current.isEmpty ? [visit.text.currentPasswordMissing] : []
            entry.newErrors = check[.newPassword].map { $0.message(visit.language) }
            entry.confirmationErrors = check[.confirmation].map { $0.message(visit.language) }
            entry.clearRejected()
            return passwordPage(entry, visit: visit, status: .badRequest)
        }
        do {
            let service = service
            let token = visit.sessionToken
            let origin = api.clientOrigin(request, context)
            try await api.limited(.passwordCheck, request, context) { [entry] in
                // The form was checked above; a rule only a submit can break is one message.
                try await InvalidForm<NewPasswordField>.firstRule {
                    try await service.changePassword(
                        token: token, currentPassword: entry.current, newPassword: entry.new,
                        confirmation: entry.confirmation, from: origin)
                }
            }
            return redirect("/welcome?notice=password_changed")
        } catch let wrong as AccountError where wrong == .wrongPassword(current: true) {
            entry.currentErrors = [wrong.message(visit.language)]
            entry.current = ""
            return passwordPage(entry, visit: visit, status: .forbidden)
        } catch let error as AccountError where error == .notSignedIn || error == .sessionExpired {
            return response(for: Redirect(location: "/?notice=session_expired", clearsSession: true))
        } catch {
            let failure = failure(error, visit: visit, context: context)
            entry.formError = failure.message
            return passwordPage(entry, visit: visit, status: failure.status, retryAfter: failure.retryAfterSeconds)
        }
    }

    private func withdraw(
        _ form: FormBody, request: Request, context: some AccountRoutesContext, visit: WebVisit
    ) async throws -> Response {
        var entry = WithdrawEntry(form)
        if !entry.confirmed || entry.password.isEmpty {
            entry.confirmErrors = entry.confirmed ? [] : [visit.text.withdrawConfirmMissing]
            entry.passwordErrors = entry.password.isEmpty ? [visit.text.passwordMissing] : []
            return withdrawPage(entry, visit: visit, status: .badRequest)
        }
        do {
            let service = service
            let token = visit.sessionToken
            let origin = api.clientOrigin(request, context)
            try await api.limited(.passwordCheck, request, context) { [entry] in
                try await service.withdraw(token: token, password: entry.password, from: origin)
            }
            return redirect("/?notice=withdrawn", cookies: [cookies.clearedSession()])
        } catch let wrong as AccountError where wrong == .wrongPassword(current: false) {
            entry.passwordErrors = [wrong.message(visit.language)]
            return withdrawPage(entry, visit: visit, status: .forbidden)
        } catch let error as AccountError where error == .notSignedIn || error == .sessionExpired {
            return response(for: Redirect(location: "/?notice=session_expired", clearsSession: true))
        } catch {
            let failure = failure(error, visit: visit, context: context)
            entry.formError = failure.message
            return withdrawPage(entry, visit: visit, status: failure.status, retryAfter: failure.retryAfterSeconds)
        }
    }

    private func passwordPage(
        _ entry: PasswordEntry, visit: WebVisit, status: HTTPResponse.Status = .ok, retryAfter: Int64? = nil
    ) -> Response {
        let text = visit.text
        let language = visit.language
        let form = FormModel(
            action: "/password", check: "/password/check", submit: text.changePassword,
            fields: [
                FieldModel(
                    name: "current", label: text.currentPasswordLabel, type: "password", value: entry.current,
                    autocomplete: "current-password", errors: entry.currentErrors),
                FieldModel(
                    name: "new", label: text.newPasswordLabel, type: "password", value: entry.new,
                    autocomplete: "new-password", rules: RuleSummary.password(service.passwordPolicy, language),
                    errors: entry.newErrors),
                FieldModel(
                    name: "confirmation", label: text.confirmNewPasswordLabel, type: "password",
                    value: entry.confirmation, autocomplete: "new-password", rules: RuleSummary.confirmation(language),
                    errors: entry.confirmationErrors),
            ],
            links: [(href: "/welcome", label: text.backToWelcome)])
        return formPage(
            form, title: text.changePassword, formError: entry.formError, visit: visit, status: status,
            retryAfter: retryAfter)
    }

    private func withdrawPage(
        _ entry: WithdrawEntry, visit: WebVisit, status: HTTPResponse.Status = .ok, retryAfter: Int64? = nil
    ) -> Response {
        let text = visit.text
        let form = FormModel(
            action: "/withdraw", submit: text.withdraw, intro: text.withdrawWarning,
            fields: [
                FieldModel(
                    name: "password", label: text.passwordLabel, type: "password", autocomplete: "current-password",
                    errors: entry.passwordErrors)
            ],
            checkboxes: [
                CheckboxModel(
                    name: "confirm", label: text.withdrawConfirmLabel, checked: entry.confirmed, required: true,
                    errors: entry.confirmErrors)
            ],
            links: [(href: "/welcome", label: text.backToWelcome)])
        return formPage(
            form, title: text.withdraw, formError: entry.formError, visit: visit, status: status, retryAfter: retryAfter
        )
    }
}

/// What was typed into the change-password form.
struct PasswordEntry: Sendable {
    var current = ""
    var new = ""
    var confirmation = ""
    var currentErrors: [String] = []
    var newErrors: [String] = []
    var confirmationErrors: [String] = []
    var formError: String?

    init() {}

    init(_ form: FormBody) {
        current = form["current"]
        new = form["new"]
        confirmation = form["confirmation"]
    }

    /// A new password that breaks a rule is cleared with its confirmation; a confirmation
    /// that does not match is cleared.
    mutating func clearRejected() {
        if !newErrors.isEmpty {
            new = ""
            confirmation = ""
        } else if !confirmationErrors.isEmpty {
            confirmation = ""
        }
    }
}

/// What was entered into the withdrawal form (the password is never shown again).
struct WithdrawEntry: Sendable {
    var password = ""
    var confirmed = false
    var passwordErrors: [String] = []
    var confirmErrors: [String] = []
    var formError: String?

    init() {}

    init(_ form: FormBody) {
        password = form["password"]
        confirmed = form.isChecked("confirm")
    }
}
