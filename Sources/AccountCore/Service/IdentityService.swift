/// Signing in with outside providers (GitHub, any OpenID Connect issuer) and the identities
/// linked to accounts, over the same store and sessions as ``AccountService``, whose
/// ``AccountService/identities`` this is.
///
/// An identity is keyed on the provider's stable id of the person, never on an email. A first
/// sign-in makes an account only for a verified email that no account has; an email that an
/// account has already opens nothing and links nothing (``AccountError/identityNotLinked``):
/// its owner signs in with the password and links the provider from that session, so whoever
/// controls an address at some provider cannot take over the account that uses it here.
public struct IdentityService: Sendable {
    let accounts: AccountService

    /// The method an access token's `amr` names for a sign-in through a provider.
    static let method = "oauth"

    /// Signs in the person `profile` describes: the account its identity is linked to, or a
    /// new account (no password, its email proven, a nickname from the provider's name or
    /// login) when the identity is new and its verified email is no account's.
    /// - Throws: `invalidDeviceName`; `accountBlocked`; `emailNotVerified` for a linked account
    ///   whose own email must be proven first; `providerEmailUnverified` for a new identity
    ///   without a verified email; `identityNotLinked` when an account has the email already;
    ///   or a store error.
    public func signIn(with profile: ProviderProfile, remember: Bool = false, device: String = "") async throws
        -> SignedInSession
    {
        try accounts.requireDeviceName(device)
        return try await open(try await account(for: profile), remember: remember, device: device)
    }

    /// How long a sign-in ticket (``ticket(for:)``) is good for.
    public static let ticketLifetimeSeconds: Int64 = 60

    /// Signs in the person `profile` describes as ``signIn(with:remember:device:)`` does, but
    /// opens no session yet: returns a ticket, good once and for a minute, that
    /// ``redeem(ticket:remember:device:)`` trades for the session where the flow ends (a Strapi
    /// app's page, the web pages). Only its digest is stored.
    /// - Throws: what ``signIn(with:remember:device:)`` throws before a session.
    public func ticket(for profile: ProviderProfile) async throws -> String {
        let user = try await account(for: profile)
        let ticket = accounts.random.hex(32)
        let now = accounts.clock.now()
        let code = OneTimeCode(
            codeHash: accounts.sessions.digester.digest(ticket), userID: user.id, purpose: .providerSignIn,
            createdAt: now, expiresAt: now.adding(seconds: Self.ticketLifetimeSeconds))
        guard try await accounts.repository.replaceCode(code) else { throw AccountError.notSignedIn }
        return ticket
    }

    /// The session a ticket of ``ticket(for:)`` opens, once.
    /// - Throws: `invalidCode` for a ticket used already, expired or never made;
    ///   `accountBlocked`, `emailNotVerified`; `invalidDeviceName`.
    public func redeem(ticket: String, remember: Bool = false, device: String = "") async throws -> SignedInSession {
        try accounts.requireDeviceName(device)
        guard ticket.utf8.count == 64, Hex.isLowercaseHex(ticket, byteCount: 32),
            let code = try await accounts.repository.takeCode(hash: accounts.sessions.digester.digest(ticket)),
            code.purpose == .providerSignIn, !code.isExpired(at: accounts.clock.now())
        else { throw AccountError.invalidCode }
        guard let user = try await accounts.repository.user(id: code.userID) else { throw AccountError.invalidCode }
        return try await open(try checked(user), remember: remember, device: device)
    }

    /// The account the person `profile` describes signs in to: the one its identity is linked
    /// to, or a new one (no password, its email proven, a nickname from the provider's name or
    /// login) when the identity is new and its verified email is no account's.
    private func account(for profile: ProviderProfile) async throws -> UserRecord {
        let repository = accounts.repository
        if let linked = try await repository.identity(provider: profile.provider, subject: profile.subject) {
            return try await linkedUser(linked)
        }
        guard let raw = profile.verifiedEmail else { throw AccountError.providerEmailUnverified }
        let email = try StoredEmail(raw).normalized
        if try await repository.user(email: email) != nil { throw AccountError.identityNotLinked }
        let now = accounts.clock.now()
        var user = UserRecord(
            id: .random(using: accounts.random), email: email, nickname: Self.nickname(for: profile, email: email),
            passwordHash: UserRecord.noPassword, createdAt: now, emailVerifiedAt: now)
        do {
            user.number = try await repository.createUser(user, initialSession: nil)
        } catch AccountError.emailTaken {
            // Another first sign-in of the same person made the account a moment ago: its
            // identity is linked by now, or the email is a password account's.
            if let linked = try await repository.identity(provider: profile.provider, subject: profile.subject) {
                return try await linkedUser(linked)
            }
            throw AccountError.identityNotLinked
        }
        do {
            let identity = ProviderIdentity(
                provider: profile.provider, subject: profile.subject, userID: user.id, email: email, linkedAt: now)
            guard try await repository.linkIdentity(identity) else { throw AccountError.notSignedIn }
        } catch {
            // The account was made for this identity alone: without it, it goes (a failed
            // sign-in leaves nothing behind).
            _ = try? await repository.deleteUser(id: user.id)
            throw error
        }
        return user
    }

    /// Links the identity `profile` describes to the signed-in user of `token` (who proved it
    /// with a password or another provider in that session). Linking one already linked to
    /// this user changes nothing.
    /// - Throws: `notSignedIn`/`sessionExpired`; `identityTaken` when another account has it.
    @discardableResult
    public func link(_ profile: ProviderProfile, token: String?) async throws -> ProviderIdentity {
        let (user, _) = try await accounts.sessions.signedInUser(token: token, touching: false)
        let repository = accounts.repository
        if let linked = try await repository.identity(provider: profile.provider, subject: profile.subject) {
            guard linked.userID == user.id else { throw AccountError.identityTaken }
            return linked
        }
        let identity = ProviderIdentity(
            provider: profile.provider, subject: profile.subject, userID: user.id,
            email: try profile.verifiedEmail.map { try StoredEmail($0).normalized }, linkedAt: accounts.clock.now())
        guard try await repository.linkIdentity(identity) else { throw AccountError.notSignedIn }
        return identity
    }

    /// The identities linked to the signed-in user of `token`, by provider then id.
    public func list(token: String?) async throws -> [ProviderIdentity] {
        let (user, _) = try await accounts.sessions.signedInUser(token: token)
        return try await accounts.repository.identities(userID: user.id)
    }

    /// Unlinks one identity of the signed-in user of `token`, unless it is the account's only
    /// way in.
    /// - Throws: `identityNotFound` when the user has no such identity; `lastWayIn` when the
    ///   account has no password and no other identity.
    public func unlink(provider: String, subject: String, token: String?) async throws {
        let (user, _) = try await accounts.sessions.signedInUser(token: token, touching: false)
        let repository = accounts.repository
        let linked = try await repository.identities(userID: user.id)
        guard linked.contains(where: { $0.provider == provider && $0.subject == subject }) else {
            throw AccountError.identityNotFound
        }
        if !user.hasPassword, linked.count == 1 { throw AccountError.lastWayIn }
        guard try await repository.unlinkIdentity(provider: provider, subject: subject, userID: user.id) else {
            throw AccountError.identityNotFound
        }
    }

    /// The user a linked identity signs in to, able to sign in.
    private func linkedUser(_ identity: ProviderIdentity) async throws -> UserRecord {
        // An identity goes with its user, so a missing user is one withdrawn this moment.
        guard let user = try await accounts.repository.user(id: identity.userID) else {
            throw AccountError.notSignedIn
        }
        return try checked(user)
    }

    /// `user`, when it may sign in: not blocked, its email proven where that is required.
    private func checked(_ user: UserRecord) throws -> UserRecord {
        if user.isBlocked { throw AccountError.accountBlocked }
        if accounts.requireVerifiedEmail, user.emailVerifiedAt == nil { throw AccountError.emailNotVerified }
        return user
    }

    /// A new session of `user`, opened only while its password is the one just read: a
    /// password change that commits meanwhile revokes every session, this one included.
    private func open(_ user: UserRecord, remember: Bool, device: String) async throws -> SignedInSession {
        let (token, session) = accounts.sessions.open(
            for: user.id, remember: remember, device: device, at: accounts.clock.now())
        guard try await accounts.repository.createSession(session, ifPasswordHashIs: user.passwordHash) else {
            throw AccountError.notSignedIn
        }
        return try await accounts.sessions.signedIn(user, token: token, session: session, methods: [Self.method])
    }

    /// A new account's nickname: the provider's name, else its login, else the email's local
    /// part, the first that meets the nickname rule once normalized; else `member`, so a
    /// sign-in never fails for want of a name.
    public static func nickname(for profile: ProviderProfile, email: String) -> String {
        let local = String(email.prefix { $0 != "@" })
        for candidate in [profile.name, profile.login, local].compactMap({ $0 })
        where Nickname.brokenRules(in: candidate).isEmpty {
            return Nickname.normalize(candidate)
        }
        return "member"
    }
}

extension AccountService {
    /// Signing in with outside providers, and the identities linked to accounts.
    public var identities: IdentityService { IdentityService(accounts: self) }
}
