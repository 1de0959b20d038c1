import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountTestSupport
import MemoryBackend
import Testing

/// Signing in with outside providers, in the account domain: who gets an account, who is never
/// taken over, and which identity may be unlinked.
@Suite("Provider sign-in and linked identities")
struct IdentityServiceTests {
    static let backends: [any BackendDescriptor] = [MemoryBackendDescriptor()]
    /// Every scheme, so an account without a password meets the hasher a server has.
    static let hasher = PasswordSchemes.standard(current: Argon2idPasswordHasher.fastForTests)

    static func profile(
        _ subject: String = "42", email: String? = "janedoe7@example.org", name: String? = "Jane Doe",
        login: String? = "jane", provider: String = "corp"
    ) -> ProviderProfile {
        ProviderProfile(provider: provider, subject: subject, verifiedEmail: email, name: name, login: login)
    }

    @Test(
        "a new identity with a verified email gets an account with no password, its email proven", arguments: backends)
    func newAccount(_ backend: any BackendDescriptor) async throws {
        let current = CountingHasher(Argon2idPasswordHasher.fastForTests)
        try await ServiceHarness.with(backend, hasher: PasswordSchemes.standard(current: current)) { h in
            let signedIn = try await h.service.identities.signIn(with: Self.profile())
            #expect(signedIn.profile.email == "janedoe7@example.org" && signedIn.profile.nickname == "Jane Doe")
            #expect(signedIn.profile.emailVerifiedAt != nil)
            let stored = try #require(try await h.repository.user(email: "janedoe7@example.org"))
            #expect(!stored.hasPassword && stored.passwordHash == UserRecord.noPassword)
            #expect(try await h.repository.identities(userID: stored.id).map(\.subject) == ["42"])
            // No password opens it, the marker itself included, and each try costs a check.
            let checks = current.verifications
            for guess in [UserRecord.noPassword, "", ServiceHarness.password] {
                #expect(
                    await accountError {
                        _ = try await h.service.login(email: "janedoe7@example.org", password: guess, remember: false)
                    } == .invalidCredentials, "\(guess)")
            }
            #expect(current.verifications == checks + 3, "a try at no password costs the check a wrong one costs")
            let again = try await h.service.identities.signIn(with: Self.profile(email: "jane-new@example.org"))
            #expect(again.profile.id == signedIn.profile.id, "the subject is the key, not the email")
        }
    }

    @Test("an email a password account has signs nobody in and links nothing", arguments: backends)
    func noTakeover(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend, hasher: Self.hasher) { h in
            let owner = try await h.signUp("janedoe7@example.org")
            let sessionsBefore = try await h.repository.sessions(userID: owner.profile.id).count
            #expect(
                await accountError { _ = try await h.service.identities.signIn(with: Self.profile()) }
                    == .identityNotLinked)
            #expect(try await h.repository.identities(userID: owner.profile.id).isEmpty)
            #expect(try await h.repository.sessions(userID: owner.profile.id).count == sessionsBefore)
            // The owner links it from a session the password opened; then it signs in.
            try await h.service.identities.link(Self.profile(), token: owner.token)
            #expect(try await h.service.identities.signIn(with: Self.profile()).profile.id == owner.profile.id)
        }
    }

    @Test("no verified email makes no account; a blocked account's identity opens nothing", arguments: backends)
    func refusals(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend, hasher: Self.hasher) { h in
            #expect(
                await accountError { _ = try await h.service.identities.signIn(with: Self.profile(email: nil)) }
                    == .providerEmailUnverified)
            #expect(try await h.repository.userCount() == 0)
            let signedIn = try await h.service.identities.signIn(with: Self.profile())
            _ = try await h.repository.setBlocked(userID: signedIn.profile.id, true)
            #expect(
                await accountError { _ = try await h.service.identities.signIn(with: Self.profile()) }
                    == .accountBlocked)
        }
    }

    @Test("an identity links to one account; unlinking never removes the last way in", arguments: backends)
    func linkAndUnlink(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend, hasher: Self.hasher) { h in
            let jane = try await h.service.identities.signIn(with: Self.profile())
            let lee = try await h.signUp()
            #expect(
                await accountError { try await h.service.identities.link(Self.profile(), token: lee.token) }
                    == .identityTaken)
            #expect(
                await accountError {
                    try await h.service.identities.unlink(provider: "corp", subject: "42", token: jane.token)
                } == .lastWayIn)
            #expect(
                await accountError {
                    try await h.service.identities.unlink(provider: "corp", subject: "42", token: lee.token)
                } == .identityNotFound, "another account's identity is not found")
            // A second identity makes the first one free to go.
            try await h.service.identities.link(Self.profile("7", provider: "github"), token: jane.token)
            try await h.service.identities.unlink(provider: "corp", subject: "42", token: jane.token)
            #expect(try await h.service.identities.list(token: jane.token).map(\.provider) == ["github"])
            // An account with a password may unlink its only identity.
            try await h.service.identities.link(Self.profile("8"), token: lee.token)
            try await h.service.identities.unlink(provider: "corp", subject: "8", token: lee.token)
            #expect(try await h.service.identities.list(token: lee.token).isEmpty)
        }
    }

    @Test(
        "a new account's nickname: the name, else the login, else the email's local part, else member",
        arguments: [
            ("Jane Doe", "jane", "janedoe7@example.org", "Jane Doe"), ("J", "jd", "janedoe7@example.org", "jd"),
            (nil, "j", "janedoe7@example.org", "janedoe7"), ("\u{7}", nil, "j@example.org", "member"),
        ] as [(String?, String?, String, String)])
    func nicknames(name: String?, login: String?, email: String, expected: String) async throws {
        #expect(IdentityService.nickname(for: Self.profile(name: name, login: login), email: email) == expected)
    }
}
