import AccountCore

/// The app's flow on a terminal: the start screen routes a member to the welcome screen
/// (log out, change password, withdraw) and a guest to sign-up or login. Every form field is
/// checked as it is entered and asked again with the rule it broke; nothing is written until
/// a form is submitted, so Ctrl-D or Ctrl-C leaves nothing half-done.
struct InteractiveApp {
    let context: CommandContext
    let service: AccountService
    private var messages: CLIMessages { context.messages }
    private var text: InteractiveMessages { InteractiveMessages(language: context.language) }

    init(context: CommandContext, service: AccountService) {
        self.context = context
        self.service = service
    }

    /// Runs until the user quits (or ends input, which throws `PromptCancelled`).
    func run() async throws {
        while true {
            let token = try context.sessionFile.read()
            switch try await service.start(token: token) {
            case .member(let profile):
                show(messages.welcome(profile.nickname))
                guard try await memberMenu(profile: profile, token: token) else { return }
            case .guest(let expired):
                if token != nil { try context.sessionFile.remove() }
                if expired { show(messages.guest(expired: true)[0]) }
                guard try await guestMenu() else { return }
            }
        }
    }

    // MARK: - Screens

    /// Returns `false` to quit.
    private func guestMenu() async throws -> Bool {
        text.guestMenu.forEach(show)
        switch try ask(text.choose).lowercased() {
        case "1": try await signUpForm()
        case "2": try await loginForm()
        case "q": return quit()
        default: show(text.unknownChoice)
        }
        return true
    }

    private func memberMenu(profile: AccountProfile, token: String?) async throws -> Bool {
        text.memberMenu.forEach(show)
        switch try ask(text.choose).lowercased() {
        case "1":
            try await service.logout(token: token)
            try context.sessionFile.remove()
            show(messages.loggedOut)
        case "2":
            try await report {
                let current = try askHidden(messages.currentPasswordPrompt)
                let new = try askHidden(messages.newPasswordPrompt)
                let confirmation = try askHidden(messages.confirmNewPasswordPrompt)
                try await service.changePassword(
                    token: token, currentPassword: current, newPassword: new, confirmation: confirmation)
                show(messages.passwordChanged)
            }
        case "3":
            let answer = try ask(messages.withdrawConfirmation(profile.email))
            guard PasswordReader.isYes(answer) else {
                show(messages.withdrawCancelled)
                return true
            }
            try await report {
                try await service.withdraw(token: token, password: try askHidden(messages.passwordPrompt))
                try context.sessionFile.remove()
                show(messages.withdrawn(profile.email))
            }
        case "q": return quit()
        default: show(text.unknownChoice)
        }
        return true
    }

    /// ID, password, confirmation, nickname: each checked as entered; submitted when all are
    /// valid; a taken email asks for the ID alone again.
    private func signUpForm() async throws {
        show(text.signUpTitle)
        var email = try askEmail()
        var password = ""
        var confirmation = ""
        func askPassword() throws {
            password = try askUntilValid(hidden: true, messages.passwordPrompt) { value throws(AccountError) in
                _ = try service.passwordPolicy.validateAlone(value)
                // The rules that need the email can be checked now; the nickname ones on submit.
                _ = try service.passwordPolicy.validate(
                    password: value, confirmation: nil, email: email.normalized, nickname: "", estimator: strength)
            }
            try askConfirmation()
        }
        func askConfirmation() throws {
            confirmation = try askUntilValid(hidden: true, messages.confirmationPrompt) { value throws(AccountError) in
                if PasswordPolicy.normalize(value) != PasswordPolicy.normalize(password) { throw .passwordMismatch }
            }
        }
        try askPassword()
        var nickname = try askUntilValid(hidden: false, text.nicknamePrompt) { value throws(AccountError) in
            _ = try Nickname(value)
        }
        while true {
            do {
                let signedIn = try await service.signUp(
                    email: email.normalized, password: password, confirmation: confirmation, nickname: nickname)
                try context.sessionFile.save(signedIn.token)
                return
            } catch let error as AccountError {
                show(error.message(context.language))
                switch error {
                case .emailTaken, .invalidEmail: email = try askEmail()
                case .invalidPassword, .weakPassword: try askPassword()
                case .passwordMismatch: try askConfirmation()
                case .invalidNickname:
                    nickname = try askUntilValid(hidden: false, text.nicknamePrompt) { value throws(AccountError) in
                        _ = try Nickname(value)
                    }
                default: return
                }
            }
        }
    }

    private func loginForm() async throws {
        show(text.loginTitle)
        try await report {
            let email = try ask(text.idPrompt)
            let password = try askHidden(messages.passwordPrompt)
            let remember = PasswordReader.isYes(try ask(text.rememberPrompt))
            let signedIn = try await service.login(email: email, password: password, remember: remember)
            try context.sessionFile.save(signedIn.token)
        }
    }

    // MARK: - Input and output

    private var strength: some PasswordStrengthEstimator { ServiceStrength(service: service) }

    private func askEmail() throws -> EmailAddress {
        var result: EmailAddress?
        _ = try askUntilValid(hidden: false, text.idPrompt) { value throws(AccountError) in
            result = try EmailAddress(value)
        }
        return result!
    }

    /// Asks until `check` accepts the answer, showing the rule it broke each time.
    private func askUntilValid(hidden: Bool, _ prompt: String, _ check: (String) throws(AccountError) -> Void) throws
        -> String
    {
        while true {
            do {
                // Reading can refuse too (a secret that is not UTF-8): asked again, like a broken rule.
                let value = hidden ? try askHidden(prompt) : try ask(prompt)
                try check(value)
                return value
            } catch let error as AccountError {
                show(error.message(context.language))
            }
        }
    }

    /// Runs an action, showing a typed error instead of leaving the flow.
    private func report(_ action: () async throws -> Void) async throws {
        do {
            try await action()
        } catch let error as AccountError where !error.isStoreFailure {
            show(error.message(context.language))
        }
    }

    private func ask(_ prompt: String) throws -> String {
        try TerminalPrompt.readVisible(prompt, language: context.language).trimmingWhitespace()
    }

    private func askHidden(_ prompt: String) throws -> String {
        try TerminalPrompt.readHidden(prompt, language: context.language)
    }

    private func show(_ line: String) {
        print(line)
    }

    private func quit() -> Bool {
        show(text.goodbye)
        return false
    }
}

/// The service's strength estimator, for checking a password field before the form is submitted.
private struct ServiceStrength: PasswordStrengthEstimator {
    let service: AccountService
    func guessesLog2(_ password: String, userWords: [String]) -> Double {
        service.strengthEstimate(password, userWords: userWords)
    }
}
