import AccountBackendKit
import AccountCore
import AccountTestSupport
import MemoryBackend
import Testing

/// The service's form refusals that list every broken rule (what the API, the web pages and the
/// CLI show), against the one-error methods they must agree with.
@Suite("InvalidForm")
struct InvalidFormTests {
    static let backends: [any BackendDescriptor] = [MemoryBackendDescriptor()]
    let password = ServiceHarness.password

    @Test(
        "a refused sign-up throws every broken rule at once, checked once, the first as signUp throws it",
        arguments: backends)
    func signUpListsEveryRule(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let forms: [(email: String, password: String, confirmation: String, nickname: String)] = [
                ("Lee_soon@x", "short", "nope", "이"),
                ("leesoon7@example.com", "password1", "password2", "이순신"),
                ("leesoon7@example.com", "my-leesoon7", "my-leesoon7", "이순신"),
                ("leesoon7@example.com", password, password + "x", "이순신"),
            ]
            for form in forms {
                let expected = h.service.signUpProblems(
                    email: form.email, nickname: form.nickname, password: form.password,
                    confirmation: form.confirmation)
                let estimatesBefore = h.strength.estimates
                let invalid = await invalidForm(SignUpField.self) {
                    _ = try await h.service.signUp(
                        email: form.email, password: form.password, confirmation: form.confirmation,
                        nickname: form.nickname)
                }
                #expect(h.strength.estimates == estimatesBefore + 1, "the password's strength is estimated once")
                #expect(invalid?.check.problems == expected.problems)
                let single = await accountError {
                    _ = try await h.service.signUp(
                        email: form.email, password: form.password, confirmation: form.confirmation,
                        nickname: form.nickname)
                }
                #expect(single != nil)
                #expect(invalid?.first == single, "the first rule listed is the one signUp throws")
            }
            let everyField = await invalidForm(SignUpField.self) {
                _ = try await h.service.signUp(
                    email: "Lee_soon@x", password: "short", confirmation: "nope", nickname: "이")
            }
            let fields = everyField?.check.brokenRules.map(\.field) ?? []
            #expect(Array(Set(fields)).count == SignUpField.allCases.count, "every field breaks a rule: \(fields)")
            #expect(fields == fields.sorted { order($0) < order($1) }, "listed field by field in the form's order")
            #expect(fields.count > SignUpField.allCases.count, "a field's several rules are all listed: \(fields)")
            let count = try await h.repository.userCount()
            #expect(count == 0)
            #expect(h.hasher.hashes == 0, "nothing is hashed for a refused form")
        }
    }

    @Test(
        "a refused new password throws every broken rule, before the current password is checked, changing nothing",
        arguments: backends)
    func changePasswordListsEveryRule(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let first = try await h.signUp()
            let second = try await h.service.login(email: "leesoon7@example.com", password: password, remember: false)
            let verificationsBefore = h.hasher.verifications
            let invalid = await invalidForm(NewPasswordField.self) {
                try await h.service.changePassword(
                    token: first.token, currentPassword: password, newPassword: "이순신-password",
                    confirmation: "something else")
            }
            #expect(invalid?.check[.newPassword].contains(.invalidPassword(.containsNickname)) == true)
            #expect(invalid?.check[.confirmation] == [.passwordMismatch])
            let single = await accountError {
                try await h.service.changePassword(
                    token: first.token, currentPassword: password, newPassword: "이순신-password",
                    confirmation: "something else")
            }
            #expect(invalid?.first == single)
            #expect(invalid?.first == .invalidPassword(.containsNickname))
            #expect(h.hasher.verifications == verificationsBefore, "the current password is not checked")
            #expect(
                try await h.service.sessions.whoami(token: second.token).nickname == "이순신", "no session was revoked")
            _ = try await h.service.login(email: "leesoon7@example.com", password: password, remember: false)
        }
    }

    @Test("the rules listed under names leave out a field without a name and keep the form's order")
    func namedRules() throws {
        var check = FormCheck<SignUpField>.signUpIdentity(email: "7Lee@x", nickname: "이")
        #expect(!check.isValid)
        let invalid = try #require(InvalidForm(check))
        let named = invalid.brokenRules(named: [.nickname: "username", .email: "email"])
        #expect(named.map(\.field) == check.brokenRules.map { $0.field == .email ? "email" : "username" })
        #expect(named.first?.field == "email")
        #expect(named.last?.error == .invalidNickname(.tooShort))
        #expect(invalid.brokenRules(named: [.nickname: "username"]).map(\.field) == ["username"])
        check = FormCheck<SignUpField>.signUpIdentity(email: "leesoon7@example.com", nickname: "이순신")
        #expect(InvalidForm(check) == nil, "a form that breaks nothing is not refused")
    }

    private func order(_ field: SignUpField) -> Int { SignUpField.allCases.firstIndex(of: field) ?? -1 }

    private func invalidForm<Field>(
        _ form: Field.Type, _ body: () async throws -> Void
    ) async -> InvalidForm<Field>? {
        do {
            try await body()
        } catch let invalid as InvalidForm<Field> {
            return invalid
        } catch {
            Issue.record("expected InvalidForm, got \(error)")
        }
        return nil
    }
}

@Suite("Sign-up: every problem in one answer")
struct SignUpOneAnswerTests {
    @Test("an ID that breaks its rule still has the password checked against it, as typed")
    func passwordCheckedAgainstTheTypedID() async throws {
        try await ServiceHarness.with(MemoryBackendDescriptor()) { h in
            let check = h.service.signUpProblems(
                email: " Leesoon7@Example.com", nickname: "이순신", password: "leesoon7-Kayak-42",
                confirmation: "leesoon7-Kayak-42")
            #expect(check[.email].contains(.invalidEmail(.localUppercase)), "\(check[.email])")
            #expect(
                check[.password].contains(.invalidPassword(.containsEmail)),
                "the password holds the ID as typed: \(check[.password])")
            let nickname = h.service.signUpProblems(
                email: "Leesoon7@example.com", nickname: " 이순신 ", password: "이순신-Kayak-42-q",
                confirmation: "이순신-Kayak-42-q")
            #expect(nickname[.password].contains(.invalidPassword(.containsNickname)), "\(nickname[.password])")
            let halfTyped = h.service.signUpProblems(
                email: "a", nickname: "", password: "Tangerine-Kayak-42", confirmation: "Tangerine-Kayak-42")
            #expect(halfTyped[.password].isEmpty, "a one-letter ID is not held against the password")
        }
    }
}
