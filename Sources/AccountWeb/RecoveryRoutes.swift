import AccountCore
import AccountServer
import Hummingbird

extension AccountWebPages {
    /// The pages of a forgotten password and a proven email: `/forgot-password` asks for the
    /// mail (the same page whether an account holds the address), `/reset-password?code=…`
    /// (the mail's link) keeps the code in a cookie and shows the new-password form, and
    /// `/verify-email?code=…` proves the email.
    func addRecoveryRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        let recovery = api.recovery
        group.getWithHead("forgot-password") { request, _ in
            forgotPage(email: "", visit: visit(of: request))
        }
        group.post("forgot-password") { request, context in
            try await posted(request) { form, visit in
                let email = form["email"]
                let rules = StoredEmail.brokenRules(in: email)
                guard rules.isEmpty else {
                    let errors = rules.map { AccountError.invalidEmail($0).message(visit.language) }
                    return forgotPage(email: email, errors: errors, visit: visit, status: .badRequest)
                }
                do {
                    let language = visit.language
                    try await api.limited(.passwordCheck, request, context) {
                        try await recovery.requestPasswordReset(email: email, language: language)
                    }
                } catch {
                    let failure = failure(error, visit: visit, context: context)
                    return forgotPage(
                        email: email, formError: failure.message, visit: visit, status: failure.status,
                        retryAfter: failure.retryAfterSeconds)
                }
                return messagePage(
                    title: visit.text.forgotTitle, message: visit.text.mailSent(VisibleText.escaping(email)),
                    visit: visit, status: .ok)
            }
        }
        group.getWithHead("reset-password") { request, _ in
            let visit = visit(of: request)
            // The link's code moves into a cookie at once: out of the address bar, the history
            // and the `Referer` of anything the page loads.
            if let code = request.uri.queryParameters.get("code") {
                // Only a code's form goes into a cookie: nothing else of the address does.
                guard RecoveryService.isWellFormed(String(code)) else {
                    return messagePage(
                        title: visit.text.resetTitle, message: AccountError.invalidCode.message(visit.language),
                        visit: visit, status: .badRequest)
                }
                return redirect(
                    "/reset-password",
                    cookies: [cookies.reset(String(code), maxAge: Int(recovery.policy.codeLifetimeSeconds))])
            }
            guard visit.resetCode != nil else {
                return messagePage(
                    title: visit.text.resetTitle, message: visit.text.resetLinkMissing, visit: visit,
                    status: .badRequest)
            }
            return resetPage(visit: visit)
        }
        group.post("reset-password") { request, context in
            try await posted(request) { form, visit in
                guard let code = visit.resetCode else {
                    return messagePage(
                        title: visit.text.resetTitle, message: visit.text.resetLinkMissing, visit: visit,
                        status: .badRequest)
                }
                do {
                    let (password, confirmation) = (form["password"], form["confirmation"])
                    let device = DeviceName.describing(userAgent: request.headers[.userAgent])
                    let signedIn = try await api.limited(.passwordCheck, request, context) {
                        try await recovery.resetPassword(
                            code: code, password: password, confirmation: confirmation, device: device)
                    }
                    return redirect(
                        "/welcome",
                        cookies: signedInCookies(signedIn, remember: false, visit: visit) + [cookies.clearedReset()])
                } catch let invalid as InvalidForm<NewPasswordField> {
                    return resetPage(
                        passwordErrors: invalid.check[.newPassword].map { $0.message(visit.language) },
                        confirmationErrors: invalid.check[.confirmation].map { $0.message(visit.language) },
                        visit: visit, status: .badRequest)
                } catch AccountError.invalidCode {
                    var response = messagePage(
                        title: visit.text.resetTitle, message: AccountError.invalidCode.message(visit.language),
                        visit: visit, status: .badRequest)
                    response.setCookie(cookies.clearedReset())
                    return response
                } catch {
                    let failure = failure(error, visit: visit, context: context)
                    return resetPage(
                        formError: failure.message, visit: visit, status: failure.status,
                        retryAfter: failure.retryAfterSeconds)
                }
            }
        }
        group.getWithHead("verify-email") { request, context in
            let visit = visit(of: request)
            let code = request.uri.queryParameters.get("code").map { String($0) } ?? ""
            do {
                _ = try await api.limited(.passwordCheck, request, context) {
                    try await recovery.verifyEmail(code: code)
                }
                return messagePage(
                    title: visit.text.verifyTitle, message: visit.text.emailProven, visit: visit, status: .ok)
            } catch {
                let failure = failure(error, visit: visit, context: context)
                return messagePage(
                    title: visit.text.verifyTitle, message: failure.message, visit: visit, status: failure.status,
                    retryAfter: failure.retryAfterSeconds)
            }
        }
    }

    private func forgotPage(
        email: String, errors: [String] = [], formError: String? = nil, visit: WebVisit,
        status: HTTPResponse.Status = .ok, retryAfter: Int64? = nil
    ) -> Response {
        let text = visit.text
        let form = FormModel(
            action: "/forgot-password", submit: text.sendMail,
            fields: [
                FieldModel(
                    name: "email", label: text.idLabel, type: "email", value: email, autocomplete: "username",
                    errors: errors)
            ],
            checkboxes: [], links: [(href: "/login", label: text.logIn)])
        return formPage(
            form, title: text.forgotTitle, formError: formError, visit: visit, status: status, retryAfter: retryAfter)
    }

    private func resetPage(
        passwordErrors: [String] = [], confirmationErrors: [String] = [], formError: String? = nil,
        visit: WebVisit, status: HTTPResponse.Status = .ok, retryAfter: Int64? = nil
    ) -> Response {
        let text = visit.text
        let form = FormModel(
            action: "/reset-password", submit: text.setPassword,
            fields: [
                FieldModel(
                    name: "password", label: text.newPasswordLabel, type: "password", autocomplete: "new-password",
                    rules: RuleSummary.password(service.passwordPolicy, visit.language), errors: passwordErrors),
                FieldModel(
                    name: "confirmation", label: text.confirmNewPasswordLabel, type: "password",
                    autocomplete: "new-password", rules: RuleSummary.confirmation(visit.language),
                    errors: confirmationErrors),
            ],
            checkboxes: [], links: [])
        return formPage(
            form, title: text.resetTitle, formError: formError, visit: visit, status: status, retryAfter: retryAfter)
    }
}
