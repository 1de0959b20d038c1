import AccountCore
import AccountServer
import Hummingbird

extension AccountWebPages {
    /// The sign-up form: ID, nickname, password, confirmation (the terminal app's order: the
    /// password rule names the nickname), "remember me". Every rule broken is listed under its
    /// field (as typed, with the script; on submit, without); a taken ID is found on submit and
    /// reported under the ID, the other fields kept.
    func addSignUpRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        group.getWithHead("signup") { request, context in
            let visit = visit(of: request)
            if try await isMember(visit) { return redirect("/welcome") }
            return signUpPage(SignUpEntry(), visit: visit)
        }
        group.post("signup") { request, context in
            return try await posted(request) { form, visit in
                var entry = SignUpEntry(form)
                let check = entry.problems(service)
                guard check.isValid else {
                    entry.show(check, visit.language)
                    return signUpPage(entry, visit: visit, status: .badRequest)
                }
                do {
                    let service = service
                    let language = visit.language
                    let signedIn = try await api.limited(.signUp, request, context) { [entry] in
                        // The form was checked above; a rule only a submit can break is one message.
                        try await InvalidForm<SignUpField>.firstRule {
                            try await service.signUp(
                                email: entry.email, password: entry.password, confirmation: entry.confirmation,
                                nickname: entry.nickname, remember: entry.remember,
                                device: DeviceName.describing(userAgent: request.headers[.userAgent]),
                                language: language)
                        }
                    }
                    return redirect(
                        "/welcome", cookies: signedInCookies(signedIn, remember: entry.remember, visit: visit))
                } catch AccountError.emailTaken {
                    entry.errors[.email] = [AccountError.emailTaken.message(visit.language)]
                    return signUpPage(entry, visit: visit, status: .conflict)
                } catch {
                    let failure = failure(error, visit: visit, context: context)
                    entry.formError = failure.message
                    return signUpPage(
                        entry, visit: visit, status: failure.status, retryAfter: failure.retryAfterSeconds)
                }
            }
        }
        group.post("signup/check") { request, _ in
            let entry = SignUpEntry(
                (try? await FormBody.read(request, limit: api.maxBodyBytes)) ?? FormBody(fields: [:]))
            let language = visit(of: request).language
            let check = entry.problems(service)
            var fields: [String: [String]] = [:]
            for field in SignUpField.allCases { fields[field.rawValue] = check[field].map { $0.message(language) } }
            return checkAnswer(valid: check.isValid, fields: fields)
        }
    }

    private func signUpPage(
        _ entry: SignUpEntry, visit: WebVisit, status: HTTPResponse.Status = .ok, retryAfter: Int64? = nil
    ) -> Response {
        let text = visit.text
        let language = visit.language
        let form = FormModel(
            action: "/signup", check: "/signup/check", submit: text.signUp,
            fields: [
                FieldModel(
                    name: "email", label: text.idLabel, type: "email", value: entry.email, autocomplete: "username",
                    rules: RuleSummary.id(language), errors: entry.errors[.email] ?? []),
                FieldModel(
                    name: "nickname", label: text.nicknameLabel, value: entry.nickname, autocomplete: "nickname",
                    rules: RuleSummary.nickname(language), errors: entry.errors[.nickname] ?? []),
                FieldModel(
                    name: "password", label: text.passwordLabel, type: "password", value: entry.password,
                    autocomplete: "new-password", rules: RuleSummary.password(service.passwordPolicy, language),
                    errors: entry.errors[.password] ?? []),
                FieldModel(
                    name: "confirmation", label: text.confirmationLabel, type: "password", value: entry.confirmation,
                    autocomplete: "new-password", rules: RuleSummary.confirmation(language),
                    errors: entry.errors[.confirmation] ?? []),
            ],
            checkboxes: [
                CheckboxModel(
                    name: "remember", label: text.rememberLabel, hint: text.rememberHint, checked: entry.remember)
            ],
            links: [(href: "/login", label: text.haveAccount)])
        return formPage(
            form, title: text.signUp, formError: entry.formError, visit: visit, status: status, retryAfter: retryAfter)
    }
}

/// What was typed into the sign-up form, and what to say about it.
struct SignUpEntry: Sendable {
    var email = ""
    var password = ""
    var confirmation = ""
    var nickname = ""
    var remember = false
    /// The fields whose bytes were not UTF-8.
    var unreadable: [SignUpField] = []
    var errors: [SignUpField: [String]] = [:]
    var formError: String?

    init() {}

    init(_ form: FormBody) {
        email = form["email"]
        password = form["password"]
        confirmation = form["confirmation"]
        nickname = form["nickname"]
        remember = form.isChecked("remember")
        unreadable = SignUpField.allCases.filter { form.unreadable.contains($0.rawValue) }
    }

    /// The rules the fields break as typed; a field that was not UTF-8 breaks that rule only.
    func problems(_ service: AccountService) -> FormCheck<SignUpField> {
        service.signUpProblems(email: email, nickname: nickname, password: password, confirmation: confirmation)
            .refusingBrokenEncoding(of: unreadable, \.notUTF8)
    }

    /// Lists every broken rule under its field; a password that breaks one is cleared with its
    /// confirmation (as the terminal app does), a confirmation that does not match is cleared.
    mutating func show(_ check: FormCheck<SignUpField>, _ language: Language) {
        for field in SignUpField.allCases where !check[field].isEmpty {
            errors[field] = check[field].map { $0.message(language) }
        }
        if !check[.password].isEmpty {
            password = ""
            confirmation = ""
        } else if !check[.confirmation].isEmpty {
            confirmation = ""
        }
    }
}
