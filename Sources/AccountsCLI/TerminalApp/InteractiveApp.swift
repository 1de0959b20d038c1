import AccountCore

/// The app's flow on a terminal: the start screen routes a member to the welcome screen
/// (log out, change password, withdraw) and a guest to sign-up or login. The forms are
/// `TerminalForm`s: rules shown before each field, every field checked as it is entered, an
/// empty answer to go back; nothing is written until a form is submitted, so Ctrl-D or Ctrl-C
/// leaves nothing half-done.
struct InteractiveApp {
    let context: CommandContext
    let service: AccountService
    private var messages: CLIMessages { context.messages }
    private var text: InteractiveMessages { InteractiveMessages(language: context.language) }
    private var io: TerminalIO { TerminalIO(language: context.language) }

    init(context: CommandContext, service: AccountService) {
        self.context = context
        self.service = service
    }

    /// Runs until the user quits (or ends input, which throws `PromptCancelled`).
    func run() async throws {
        while true {
            let session = try await context.storeSession(service)
            let token = session.token
            switch try await service.sessions.start(token: token) {
            case .member(let profile):
                io.show(messages.welcome(profile))
                io.show(text.signedInAs(profile.email))
                guard try await memberMenu(profile: profile, session: session) else { return }
            case .guest(let expired):
                if token != nil { try session.forget() }
                if expired { io.show(messages.guest(expired: true)[0]) }
                guard try await guestMenu() else { return }
            }
        }
    }

    // MARK: - Screens

    /// Returns `false` to quit.
    private func guestMenu() async throws -> Bool {
        text.guestMenu.forEach(io.show)
        switch try io.choose(text.choose).lowercased() {
        case "1": try await signUp()
        case "2": try await logIn()
        case "q": return quit()
        default: io.show(text.unknownChoice)
        }
        return true
    }

    private func memberMenu(profile: AccountProfile, session: StoreSession) async throws -> Bool {
        let token = session.token
        text.memberMenu.forEach(io.show)
        switch try io.choose(text.choose).lowercased() {
        case "1":
            try await service.sessions.logout(token: token)
            try session.forget()
            io.show(messages.loggedOut)
        case "2": try await changePassword(profile: profile, token: token)
        case "3": try await withdraw(profile: profile, session: session)
        case "q": return quit()
        default: io.show(text.unknownChoice)
        }
        return true
    }

    /// ID, nickname, password, confirmation — the nickname before the password, so a password
    /// that contains it can be fixed either way (an empty password goes back to the nickname).
    /// The ID's duplicate is checked as soon as it is entered, and again by the store on submit.
    /// Each field's rules are the service's (`signUpProblems`), as the API and the web pages
    /// check them.
    private func signUp() async throws {
        /// The rules `field` breaks with `answer` in it and the other fields as entered so far.
        func problems(_ field: SignUpField, _ answer: String, _ values: [SignUpField: String]) -> [AccountError] {
            var values = values
            values[field] = answer
            return service.signUpProblems(
                email: values[.email] ?? "", nickname: values[.nickname] ?? "", password: values[.password] ?? "",
                confirmation: values[.confirmation] ?? "")[field]
        }
        var form = TerminalForm<SignUpField>([
            .init(field: .email, prompt: text.idPrompt, rules: text.idRules, notUTF8: SignUpField.email.notUTF8) {
                answer, values in
                let broken = problems(.email, answer, values)
                guard broken.isEmpty else { return broken }
                return try await service.isRegistered(email: answer) ? [.emailTaken] : []
            },
            .init(
                field: .nickname, prompt: text.nicknamePrompt, rules: text.nicknameRules,
                notUTF8: SignUpField.nickname.notUTF8
            ) { answer, values in
                problems(.nickname, answer, values)
            },
            .init(
                field: .password, prompt: messages.passwordPrompt, rules: text.passwordRules(service.passwordPolicy),
                hidden: true
            ) { answer, values in
                problems(.password, answer, values)
            },
            .init(
                field: .confirmation, prompt: messages.confirmationPrompt, rules: text.confirmationRules, hidden: true
            ) { answer, values in
                problems(.confirmation, answer, values)
            },
        ])
        io.show(text.signUpTitle)
        io.show(text.backHint)
        guard try await form.fill(io) else { return }
        let remember = PasswordReader.isYes(try io.ask(text.rememberPrompt))
        while true {
            do {
                // Each field was checked as it was typed: what is left is one message at a time.
                let signedIn = try await InvalidForm<SignUpField>.firstRule {
                    try await service.signUp(
                        email: form[.email], password: form[.password], confirmation: form[.confirmation],
                        nickname: form[.nickname], remember: remember, device: ThisDevice.name("accounts app"),
                        language: text.language)
                }
                try await keep(signedIn, accountCreated: true)
                return
            } catch let error as AccountError where !error.isStoreFailure {
                io.show(problems: [error])
                switch error {
                case .emailTaken, .invalidEmail: form.clear(.email)
                case .invalidNickname: form.clear(.nickname)
                case .invalidPassword, .weakPassword: form.clear(.password, .confirmation)
                case .passwordMismatch: form.clear(.confirmation)
                default: return
                }
                guard try await form.fill(io) else { return }
            }
        }
    }

    private enum LoginField { case id, password }

    /// A wrong password is asked again on the same screen; a throttled account goes back to
    /// the start screen with the wait.
    private func logIn() async throws {
        var form = TerminalForm<LoginField>([
            .init(field: .id, prompt: text.idPrompt, notUTF8: SignUpField.email.notUTF8) { answer, _ in
                StoredEmail.brokenRules(in: answer).map(AccountError.invalidEmail)
            },
            .init(field: .password, prompt: messages.passwordPrompt, hidden: true),
        ])
        io.show(text.loginTitle)
        io.show(text.backHint)
        guard try await form.fill(io) else { return }
        let remember = PasswordReader.isYes(try io.ask(text.rememberPrompt))
        var replacement: NewPassword?
        while true {
            do {
                let signedIn = try await service.login(
                    email: form[.id], password: form[.password], remember: remember,
                    device: ThisDevice.name("accounts app"), replacingTemporaryWith: replacement)
                try await keep(signedIn, accountCreated: false)
                return
            } catch AccountError.passwordChangeRequired {
                // Told only after the right password: the new one is asked for, then checked by
                // the login itself, which lists every rule it breaks.
                io.show(problems: [.passwordChangeRequired])
                guard let typed = try await askNewPassword() else { return }
                replacement = typed
            } catch let refused as InvalidForm<NewPasswordField> {
                io.show(problems: refused.check.brokenRules.map(\.error))
                guard let typed = try await askNewPassword() else { return }
                replacement = typed
            } catch AccountError.invalidCredentials {
                io.show(problems: [.invalidCredentials])
                form.clear(.password)
                guard try await form.fill(io) else { return }
            } catch let error as AccountError where !error.isStoreFailure {
                io.show(problems: [error])
                return
            }
        }
    }

    private enum NewPasswordEntry { case new, confirmation }

    /// A new password typed twice, for a login whose password is temporary; `nil` when the
    /// person went back.
    private func askNewPassword() async throws -> NewPassword? {
        var form = TerminalForm<NewPasswordEntry>([
            .init(
                field: .new, prompt: messages.newPasswordPrompt, rules: text.passwordRules(service.passwordPolicy),
                hidden: true),
            .init(field: .confirmation, prompt: messages.confirmNewPasswordPrompt, hidden: true),
        ])
        guard try await form.fill(io) else { return nil }
        return NewPassword(form[.new], confirmation: form[.confirmation])
    }

    private enum PasswordChangeField { case current, new, confirmation }

    /// The new password is checked as entered against the account's rules (and must differ from
    /// the current one), with the service's `newPasswordProblems`; a wrong current password is
    /// asked again, keeping the new one.
    private func changePassword(profile: AccountProfile, token: String?) async throws {
        func problems(_ values: [PasswordChangeField: String]) -> FormCheck<NewPasswordField> {
            service.newPasswordProblems(
                for: profile, current: values[.current], newPassword: values[.new] ?? "",
                confirmation: values[.confirmation] ?? "")
        }
        var form = TerminalForm<PasswordChangeField>([
            .init(field: .current, prompt: messages.currentPasswordPrompt, hidden: true),
            .init(
                field: .new, prompt: messages.newPasswordPrompt, rules: text.passwordRules(service.passwordPolicy),
                hidden: true
            ) { answer, values in
                var values = values
                values[.new] = answer
                return problems(values)[.newPassword]
            },
            .init(
                field: .confirmation, prompt: messages.confirmNewPasswordPrompt, rules: text.confirmationRules,
                hidden: true
            ) { answer, values in
                var values = values
                values[.confirmation] = answer
                return problems(values)[.confirmation]
            },
        ])
        io.show(text.changePasswordTitle)
        io.show(text.backHint)
        guard try await form.fill(io) else { return }
        while true {
            do {
                try await InvalidForm<NewPasswordField>.firstRule {
                    try await service.changePassword(
                        token: token, currentPassword: form[.current], newPassword: form[.new],
                        confirmation: form[.confirmation])
                }
                io.show(messages.passwordChanged)
                return
            } catch AccountError.wrongPassword {
                io.show(problems: [.wrongPassword(current: true)])
                form.clear(.current)
            } catch let error as AccountError where !error.isStoreFailure {
                io.show(problems: [error])
                switch error {
                case .invalidPassword, .weakPassword: form.clear(.new, .confirmation)
                case .passwordMismatch: form.clear(.confirmation)
                default: return
                }
            }
            guard try await form.fill(io) else { return }
        }
    }

    private enum WithdrawalField { case password }

    /// Only the word shown confirms; a wrong password is asked again; an empty one goes back.
    private func withdraw(profile: AccountProfile, session: StoreSession) async throws {
        guard text.confirmationWords.contains(try io.ask(messages.withdrawConfirmation(profile.email))) else {
            io.show(messages.withdrawCancelled)
            return
        }
        var form = TerminalForm<WithdrawalField>([
            .init(field: .password, prompt: messages.passwordPrompt, hidden: true)
        ])
        while true {
            guard try await form.fill(io) else {
                io.show(messages.withdrawCancelled)
                return
            }
            do {
                try await service.withdraw(token: session.token, password: form[.password])
                try session.forget()
                io.show(messages.withdrawn(profile.email))
                return
            } catch AccountError.wrongPassword {
                io.show(problems: [.wrongPassword(current: false)])
                form.clear(.password)
            } catch let error as AccountError where !error.isStoreFailure {
                io.show(problems: [error])
                return
            }
        }
    }

    // MARK: - Helpers

    /// Saves a committed sign-in's session; when the file cannot be written, says what happened
    /// and stays on the start screen as a guest.
    private func keep(_ signedIn: SignedInSession, accountCreated: Bool) async throws {
        do {
            _ = try await context.keepSession(
                signedIn, in: context.storeSession(service), accountCreated: accountCreated, service: service)
        } catch let unsaved as SessionNotSaved {
            io.show(unsaved.message(context.language))
        }
    }

    private func quit() -> Bool {
        io.show(text.goodbye)
        return false
    }
}
