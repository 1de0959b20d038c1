import AccountCore
import AccountProviders
import AccountServer
import AccountServerSettings
import Hummingbird

extension AccountWebPages {
    /// The login form: ID, password, "remember me". A wrong password keeps the ID and asks
    /// again; a throttled account or client is told how long to wait. An account whose
    /// password is temporary gets the form again with a new password to type twice (the
    /// current one is asked again: no password ever goes back into a page).
    func addLoginRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        group.getWithHead("login") { request, _ in
            let visit = visit(of: request)
            if try await isMember(visit) { return redirect("/welcome") }
            return loginPage(LoginEntry(), visit: visit)
        }
        group.post("login") { request, context in
            return try await posted(request) { form, visit in
                var entry = LoginEntry(form)
                let emailRules = StoredEmail.brokenRules(in: entry.email)
                if !emailRules.isEmpty || entry.password.isEmpty {
                    entry.emailErrors = emailRules.map { AccountError.invalidEmail($0).message(visit.language) }
                    entry.passwordErrors = entry.password.isEmpty ? [visit.text.passwordMissing] : []
                    return loginPage(entry, visit: visit, status: .badRequest)
                }
                do {
                    let service = service
                    let origin = api.loginOrigin(
                        request, context, email: entry.email, deviceToken: visit.deviceToken)
                    let signedIn = try await api.limited(.login, request, context) { [entry] in
                        try await service.login(
                            email: entry.email, password: entry.password, remember: entry.remember, from: origin,
                            device: DeviceName.describing(userAgent: request.headers[.userAgent]),
                            replacingTemporaryWith: entry.replacement)
                    }
                    return redirect(
                        "/welcome", cookies: signedInCookies(signedIn, remember: entry.remember, visit: visit))
                } catch AccountError.passwordChangeRequired {
                    entry.clearPasswords()
                    entry.asksNewPassword = true
                    entry.formError = AccountError.passwordChangeRequired.message(visit.language)
                    return loginPage(entry, visit: visit, status: .forbidden)
                } catch let invalid as InvalidForm<NewPasswordField> {
                    entry.clearPasswords()
                    entry.asksNewPassword = true
                    entry.newPasswordErrors = invalid.check[.newPassword].map { $0.message(visit.language) }
                    entry.confirmationErrors = invalid.check[.confirmation].map { $0.message(visit.language) }
                    return loginPage(entry, visit: visit, status: .badRequest)
                } catch {
                    let failure = failure(error, visit: visit, context: context)
                    entry.clearPasswords()
                    entry.formError = failure.message
                    return loginPage(entry, visit: visit, status: failure.status, retryAfter: failure.retryAfterSeconds)
                }
            }
        }
    }

    /// Whether the browser holds a valid session (a store failure counts as "no": the page
    /// shown is then a guest's, and the next step reports the failure).
    func isMember(_ visit: WebVisit) async throws -> Bool {
        guard visit.sessionToken != nil else { return false }
        if case .success? = try? await member(visit) { return true }
        return false
    }

    func loginPage(
        _ entry: LoginEntry, visit: WebVisit, status: HTTPResponse.Status = .ok, retryAfter: Int64? = nil
    ) -> Response {
        let text = visit.text
        var fields = [
            FieldModel(
                name: "email", label: text.idLabel, type: "email", value: entry.email, autocomplete: "username",
                errors: entry.emailErrors),
            FieldModel(
                name: "password", label: text.passwordLabel, type: "password", autocomplete: "current-password",
                errors: entry.passwordErrors),
        ]
        if entry.asksNewPassword {
            fields += [
                FieldModel(
                    name: "new_password", label: text.newPasswordLabel, type: "password", autocomplete: "new-password",
                    rules: RuleSummary.password(service.passwordPolicy, visit.language),
                    errors: entry.newPasswordErrors),
                FieldModel(
                    name: "confirmation", label: text.confirmNewPasswordLabel, type: "password",
                    autocomplete: "new-password", rules: RuleSummary.confirmation(visit.language),
                    errors: entry.confirmationErrors),
            ]
        }
        let form = FormModel(
            action: "/login", submit: text.logIn,
            fields: fields,
            checkboxes: [
                CheckboxModel(
                    name: "remember", label: text.rememberLabel, hint: text.rememberHint, checked: entry.remember)
            ],
            links: [(href: "/forgot-password", label: text.forgotLink), (href: "/signup", label: text.noAccount)],
            providers: api.providers.byName.values.map(\.settings).sorted { $0.name < $1.name }.map {
                (href: "/providers/\($0.name)/start", label: text.signInWith($0.displayName))
            })
        return formPage(
            form, title: text.logIn, formError: entry.formError, visit: visit, status: status, retryAfter: retryAfter)
    }
}

/// What was typed into the login form (no password is ever shown again).
struct LoginEntry: Sendable {
    var email = ""
    var password = ""
    var remember = false
    /// A new password for a temporary one, typed twice (the form shows these fields once the
    /// service asked for them, and keeps them while they are posted).
    var newPassword = ""
    var confirmation = ""
    var asksNewPassword = false
    var emailErrors: [String] = []
    var passwordErrors: [String] = []
    var newPasswordErrors: [String] = []
    var confirmationErrors: [String] = []
    var formError: String?

    init() {}

    init(_ form: FormBody) {
        email = form["email"]
        password = form["password"]
        remember = form.isChecked("remember")
        newPassword = form["new_password"]
        confirmation = form["confirmation"]
        asksNewPassword = !newPassword.isEmpty || !confirmation.isEmpty
    }

    /// The new password, when one was typed.
    var replacement: NewPassword? {
        newPassword.isEmpty ? nil : NewPassword(newPassword, confirmation: confirmation)
    }

    /// Every password typed, forgotten before the form is shown again.
    mutating func clearPasswords() {
        (password, newPassword, confirmation) = ("", "", "")
    }
}
