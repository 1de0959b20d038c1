import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountTestSupport
import MemoryBackend
import Testing

/// The service's rules, over the in-memory reference backend. The rules do not depend on the
/// store: the conformance suite holds every backend to the repository contract they rely on,
/// and the CLI scenarios replay these flows on every backend.
@Suite("AccountService")
struct AccountServiceTests {
    static let backends: [any BackendDescriptor] = [MemoryBackendDescriptor()]
    let password = ServiceHarness.password

    @Test("sign-up creates the user and a session; start welcomes the member", arguments: backends)
    func signUpAndStart(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let signedIn = try await h.signUp("leesoon7@Example.com", nickname: "  이순신 ")
            #expect(signedIn.profile.email == "leesoon7@example.com")
            #expect(signedIn.profile.nickname == "이순신")
            #expect(try await h.service.sessions.start(token: signedIn.token) == .member(signedIn.profile))
            #expect(try await h.service.sessions.whoami(token: signedIn.token) == signedIn.profile)
            #expect(try await h.service.sessions.start(token: nil) == .guest(sessionExpired: false))
            let stored = try #require(try await h.repository.user(email: "leesoon7@example.com"))
            #expect(stored.passwordHash.hasPrefix("$argon2id$"))
            #expect(!stored.passwordHash.contains(password))
            #expect(try await h.repository.session(tokenHash: signedIn.token) == nil, "the raw token must not be a key")
            #expect(try await h.repository.session(tokenHash: SHA256TokenDigester().digest(signedIn.token)) != nil)
        }
    }

    @Test("a sign-up that breaks any rule leaves nothing behind", arguments: backends)
    func failedSignUpLeavesNothing(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let attempts: [(String, String, String, String, String)] = [
                ("Leesoon7@example.com", password, password, "이순신", "invalid_email"),
                ("leesoon7@example.com", "short", "short", "이순신", "invalid_password"),
                ("leesoon7@example.com", "password1", "password1", "이순신", "weak_password"),
                ("leesoon7@example.com", password, password + "x", "이순신", "password_mismatch"),
                ("leesoon7@example.com", password, password, "이", "invalid_nickname"),
            ]
            for (email, pw, confirmation, nickname, code) in attempts {
                let error = await accountError {
                    _ = try await h.service.signUp(
                        email: email, password: pw, confirmation: confirmation, nickname: nickname)
                }
                #expect(error?.code == code)
            }
            let count = try await h.repository.userCount()
            #expect(count == 0)
            #expect(h.hasher.hashes == 0, "nothing is hashed before every field is valid")
        }
    }

    @Test("a duplicate in any spelling gives email_taken before hashing", arguments: backends)
    func duplicate(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            try await h.signUp()
            let hashesBefore = h.hasher.hashes
            for spelling in ["leesoon7@example.com", "leesoon7@EXAMPLE.COM", "  leesoon7@Example.com  "] {
                #expect(await accountError { try await h.signUp(spelling, nickname: "someone") } == .emailTaken)
            }
            #expect(h.hasher.hashes == hashesBefore)
            #expect(try await h.repository.userCount() == 1)
        }
    }

    @Test(
        "an account moved in logs in with its address in any case and its domain in Unicode; sign-up's rule is unchanged",
        arguments: backends)
    func loginFoldsCase(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            for email in ["john.doe@gmail.com", "user@xn--9n2bp8q.xn--3e0b707e"] {
                try await h.repository.createUser(
                    UserRecord(
                        id: .random(using: h.random), email: email, nickname: "John",
                        passwordHash: try h.hasher.hash(password), createdAt: h.clock.now()),
                    initialSession: nil)
            }
            for typed in ["John.Doe@Gmail.com", "JOHN.DOE@GMAIL.COM", " john.doe@gmail.com ", "USER@실례.한국"] {
                let session = try await h.service.login(email: typed, password: password, remember: false)
                #expect(
                    ["john.doe@gmail.com", "user@xn--9n2bp8q.xn--3e0b707e"].contains(session.profile.email), "\(typed)")
            }
            #expect(
                await accountError { try await h.signUp("Leesoon7@example.com") } == .invalidEmail(.localUppercase))
        }
    }

    @Test(
        "a blocked account answers as any other to a wrong password, account_blocked to the right one, and its sessions end",
        arguments: backends)
    func blockedAccount(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let first = try await h.signUp()
            let user = try #require(try await h.repository.user(email: "leesoon7@example.com"))
            #expect(try await h.repository.setBlocked(userID: user.id, true))
            #expect(await accountError { _ = try await h.service.sessions.whoami(token: first.token) } == .notSignedIn)
            #expect(
                await accountError {
                    _ = try await h.service.login(
                        email: "leesoon7@example.com", password: "Wrong-Kayak-42", remember: false)
                } == .invalidCredentials, "a wrong password learns nothing of the block")
            #expect(
                await accountError {
                    _ = try await h.service.login(email: "leesoon7@example.com", password: password, remember: false)
                } == .accountBlocked)
            #expect(try await h.repository.sessions(userID: user.id).isEmpty, "nothing was signed in")
            #expect(try await h.repository.setBlocked(userID: user.id, false))
            _ = try await h.service.login(email: "leesoon7@example.com", password: password, remember: false)
        }
    }

    @Test(
        "a temporary password signs in only with a new one, held to the rules; the new one ends every other session",
        arguments: backends)
    func temporaryPassword(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let temporary = "Welcome-Tangerine-1"
            let user = UserRecord(
                id: .random(using: h.random), email: "imported@example.com", nickname: "Imported",
                passwordHash: try h.hasher.hash(temporary), createdAt: h.clock.now(), mustChangePassword: true)
            let old = SessionRecord(
                tokenHash: String(repeating: "a", count: 64), userID: user.id, createdAt: h.clock.now(),
                lastSeenAt: h.clock.now(), expiresAt: h.clock.now().adding(seconds: 3_600), idleTimeoutSeconds: 600,
                remember: false)
            try await h.repository.createUser(user, initialSession: old)
            #expect(
                await accountError {
                    _ = try await h.service.login(email: user.email, password: "Wrong-Kayak-42", remember: false)
                } == .invalidCredentials)
            #expect(
                await accountError {
                    _ = try await h.service.login(email: user.email, password: temporary, remember: false)
                } == .passwordChangeRequired)
            // The rules of any new password: not the temporary one, long enough, confirmed.
            for (new, confirmation, rule) in [
                (temporary, temporary, AccountError.invalidPassword(.sameAsCurrent)),
                ("short", "short", .invalidPassword(.tooShort)),
                ("Kettle-Orchid-Basalt-27", "Kettle-Orchid-Basalt-28", .passwordMismatch),
            ] {
                #expect(
                    await accountError {
                        _ = try await h.service.login(
                            email: user.email, password: temporary, remember: false,
                            replacingTemporaryWith: NewPassword(new, confirmation: confirmation))
                    } == rule)
            }
            #expect(try await h.repository.user(id: user.id)?.mustChangePassword == true, "nothing changed yet")
            let signedIn = try await h.service.login(
                email: user.email, password: temporary, remember: false,
                replacingTemporaryWith: NewPassword("Kettle-Orchid-Basalt-27", confirmation: "Kettle-Orchid-Basalt-27"))
            let stored = try #require(try await h.repository.user(id: user.id))
            #expect(!stored.mustChangePassword)
            #expect(
                try await h.repository.sessions(userID: user.id).map(\.tokenHash)
                    == [SHA256TokenDigester().digest(signedIn.token)], "the session it had before ended")
            #expect(
                await accountError {
                    _ = try await h.service.login(email: user.email, password: temporary, remember: false)
                } == .invalidCredentials, "the temporary password is gone")
            _ = try await h.service.login(email: user.email, password: "Kettle-Orchid-Basalt-27", remember: false)
            // A new password given to an account whose password is its own changes nothing.
            _ = try await h.service.login(
                email: user.email, password: "Kettle-Orchid-Basalt-27", remember: false,
                replacingTemporaryWith: NewPassword("Another-Orchid-99", confirmation: "Another-Orchid-99"))
            #expect(try await h.repository.user(id: user.id)?.passwordHash == stored.passwordHash)
        }
    }

    @Test("unknown email and wrong password give the same error, and both verify once", arguments: backends)
    func genericCredentials(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            try await h.signUp()
            let before = h.hasher.verifications
            let unknown = await accountError {
                _ = try await h.service.login(email: "nobody99@example.com", password: password, remember: false)
            }
            let afterUnknown = h.hasher.verifications
            let wrong = await accountError {
                _ = try await h.service.login(
                    email: "leesoon7@example.com", password: "Wrong-Kayak-42", remember: false)
            }
            #expect(unknown == .invalidCredentials && wrong == .invalidCredentials)
            #expect(unknown?.message(.english) == wrong?.message(.english))
            #expect(afterUnknown - before == 1, "the unknown path runs one dummy verification")
            #expect(h.hasher.verifications - afterUnknown == 1)
        }
    }

    @Test("a device's five failures make it wait, doubling; a success resets it", arguments: backends)
    func throttling(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            try await h.signUp()
            func login(_ pw: String, _ email: String = "leesoon7@example.com") async -> AccountError? {
                await accountError { _ = try await h.service.login(email: email, password: pw, remember: false) }
            }
            for _ in 1...5 { #expect(await login("Wrong-Kayak-42") == .invalidCredentials) }
            // The device waits 1 s after its 5th failure: even the right password, in any spelling.
            #expect(await login(password) == .tooManyAttempts(retryAfterSeconds: 1))
            #expect(await login(password, "leesoon7@EXAMPLE.com") == .tooManyAttempts(retryAfterSeconds: 1))
            h.clock.advance(seconds: 1)
            #expect(await login("Wrong-Kayak-42") == .invalidCredentials)
            #expect(await login(password) == .tooManyAttempts(retryAfterSeconds: 2), "the delay doubles")
            #expect(
                try await h.repository.user(email: "leesoon7@example.com")?.failedLoginCount == 6,
                "the store counts the failures for the operator")
            h.clock.advance(seconds: 2)
            #expect(await login(password) == nil)
            #expect(try await h.repository.user(email: "leesoon7@example.com")?.failedLoginCount == 0)
            #expect(await login("Wrong-Kayak-42") == .invalidCredentials)
            #expect(await login(password) == nil, "one failure after a reset does not throttle")
        }
    }

    @Test(
        "strangers' failures never lock out the owner's known device; a new device waits for the ceiling",
        arguments: backends)
    func strangersCannotLockOut(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            try await h.signUp()
            let email = "leesoon7@example.com"
            let policy = h.service.throttle.policy
            func login(_ pw: String, from origin: LoginOrigin) async -> AccountError? {
                await accountError {
                    _ = try await h.service.login(email: email, password: pw, remember: false, from: origin)
                }
            }
            let known = LoginOrigin(client: "198.51.100.7", device: "0123456789abcdef0123456789abcdef")
            // Strangers from three addresses: each is throttled on its own, and together they
            // fill the account's ceiling (10) for unknown devices.
            let strangers = ["203.0.113.1", "203.0.113.2", "203.0.113.3"].map { LoginOrigin(client: $0) }
            var failures = 0
            for round in 1...30 {
                for stranger in strangers
                where await login("Wrong-Kayak-\(round)", from: stranger) == .invalidCredentials {
                    failures += 1
                }
                h.clock.advance(seconds: 1)
                #expect(await login(password, from: known) == nil, "round \(round): the owner's device signs in")
            }
            #expect(failures == policy.accountCeiling, "the ceiling bounds the strangers' guesses")
            // The owner on a new device waits for the ceiling to drain by one, as documented.
            let newDevice = LoginOrigin(client: "198.51.100.9")
            guard case .tooManyAttempts(let wait)? = await login(password, from: newDevice) else {
                Issue.record("a new device is throttled while the ceiling is full")
                return
            }
            #expect(wait > 0 && wait <= policy.ceilingDrainSeconds)
            h.clock.advance(seconds: wait)
            #expect(await login(password, from: newDevice) == nil)
            // The owner's success used no room under the ceiling: the stranger who asks first
            // gets the one failure that drained, and then waits again.
            #expect(await login("Wrong-Kayak-1", from: strangers[0]) == .invalidCredentials)
            guard case .tooManyAttempts? = await login("Wrong-Kayak-2", from: strangers[1]) else {
                Issue.record("the ceiling is full again")
                return
            }
        }
    }

    @Test("an unknown email is throttled exactly as a registered one, step by step", arguments: backends)
    func unknownEmailsAlike(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            try await h.signUp()
            func steps(_ email: String, client: String) async -> [String] {
                var seen: [String] = []
                for step in 1...16 {
                    let error = await accountError {
                        _ = try await h.service.login(
                            email: email, password: "Wrong-Kayak-42", remember: false,
                            from: LoginOrigin(client: client))
                    }
                    switch error {
                    case .tooManyAttempts(let seconds)?: seen.append("wait \(seconds) s")
                    case let other?: seen.append(other.code)
                    case nil: seen.append("signed in")
                    }
                    if step % 4 == 0 { h.clock.advance(seconds: 3) }
                }
                return seen
            }
            let registered = await steps("leesoon7@example.com", client: "203.0.113.1")
            let unknown = await steps("nobody77@example.com", client: "203.0.113.1")
            #expect(registered == unknown)
            #expect(registered.contains { $0.hasPrefix("wait") }, "the sequence reaches the throttle: \(registered)")
        }
    }

    @Test("a wrong current password throttles the session that typed it, not the account's logins", arguments: backends)
    func signedInChecksThrottleTheirSession(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let session = try await h.signUp()
            let client = LoginOrigin(client: "203.0.113.1")
            for _ in 1...5 {
                #expect(
                    await accountError {
                        try await h.service.withdraw(token: session.token, password: "Wrong-Kayak-42", from: client)
                    } == .wrongPassword(current: false))
            }
            #expect(
                await accountError {
                    try await h.service.withdraw(token: session.token, password: password, from: client)
                }
                    == .tooManyAttempts(retryAfterSeconds: 1))
            #expect(
                await accountError {
                    _ = try await h.service.login(
                        email: "leesoon7@example.com", password: password, remember: false, from: client)
                } == nil)
        }
    }

    @Test("remember me extends the session; idle and absolute expiry end it", arguments: backends)
    func expiry(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            try await h.signUp()
            let short = try await h.service.login(email: "leesoon7@example.com", password: password, remember: false)
            let long = try await h.service.login(email: "leesoon7@example.com", password: password, remember: true)
            #expect(long.expiresAt > short.expiresAt)
            h.clock.advance(seconds: 3_599)
            #expect(
                try await h.service.sessions.whoami(token: short.token).email == "leesoon7@example.com",
                "use refreshes idle time")
            h.clock.advance(seconds: 3_599)
            #expect(try await h.service.sessions.whoami(token: short.token).email == "leesoon7@example.com")
            h.clock.advance(seconds: 3_601)
            #expect(
                await accountError { _ = try await h.service.sessions.whoami(token: short.token) } == .sessionExpired)
            #expect(
                try await h.service.sessions.start(token: short.token) == .guest(sessionExpired: false),
                "expired sessions are purged")
            #expect(try await h.service.sessions.whoami(token: long.token).nickname == "이순신")
            h.clock.advance(seconds: 90 * 86_400)
            #expect(try await h.service.sessions.start(token: long.token) == .guest(sessionExpired: true))
        }
    }

    @Test("logout revokes the session on the store side", arguments: backends)
    func logout(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let session = try await h.signUp()
            try await h.service.sessions.logout(token: session.token)
            #expect(
                await accountError { _ = try await h.service.sessions.whoami(token: session.token) } == .notSignedIn)
            #expect(await accountError { try await h.service.sessions.logout(token: session.token) } == .notSignedIn)
            #expect(await accountError { try await h.service.sessions.logout(token: "not-a-token") } == .notSignedIn)
        }
    }

    @Test("a password change needs the current password and revokes every other session", arguments: backends)
    func changePassword(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let first = try await h.signUp()
            let second = try await h.service.login(email: "leesoon7@example.com", password: password, remember: false)
            let newPassword = "Quokka-Lantern-77"
            #expect(
                await accountError {
                    try await h.service.changePassword(
                        token: first.token, currentPassword: "Wrong-Kayak-42", newPassword: newPassword,
                        confirmation: newPassword)
                } == .wrongPassword(current: true))
            #expect(
                await accountError {
                    try await h.service.changePassword(
                        token: first.token, currentPassword: password, newPassword: newPassword, confirmation: "nope")
                } == .passwordMismatch)
            try await h.service.changePassword(
                token: first.token, currentPassword: password, newPassword: newPassword, confirmation: newPassword)
            #expect(try await h.service.sessions.whoami(token: first.token).nickname == "이순신", "the session used stays")
            #expect(await accountError { _ = try await h.service.sessions.whoami(token: second.token) } == .notSignedIn)
            #expect(
                await accountError {
                    _ = try await h.service.login(email: "leesoon7@example.com", password: password, remember: false)
                } == .invalidCredentials)
            #expect(
                try await h.service.login(email: "leesoon7@example.com", password: newPassword, remember: false).profile
                    .nickname == "이순신")
        }
    }

    @Test("a new password equal to the current one is refused and changes nothing", arguments: backends)
    func sameAsCurrent(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let first = try await h.signUp()
            let second = try await h.service.login(email: "leesoon7@example.com", password: password, remember: false)
            let error = await accountError {
                // NFKC makes the full-width digits the same password.
                try await h.service.changePassword(
                    token: first.token, currentPassword: password, newPassword: "Tangerine-Kayak-４２",
                    confirmation: "Tangerine-Kayak-４２")
            }
            #expect(error?.code == "invalid_password")
            #expect(error == .invalidPassword(.sameAsCurrent))
            #expect(
                try await h.service.sessions.whoami(token: second.token).nickname == "이순신", "no session was revoked")
        }
    }

    @Test(
        "sign-up with remember me makes a remembered first session; the duplicate check sees any spelling",
        arguments: backends)
    func signUpRemembered(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            #expect(try await h.service.isRegistered(email: "leesoon7@example.com") == false)
            let remembered = try await h.service.signUp(
                email: "leesoon7@example.com", password: password, confirmation: password, nickname: "이순신",
                remember: true)
            #expect(try await h.service.isRegistered(email: "leesoon7@EXAMPLE.com"))
            let plain = try await h.service.signUp(
                email: "admiral7@example.com", password: password, confirmation: password, nickname: "이순신")
            #expect(remembered.expiresAt > plain.expiresAt)
            let user = try #require(try await h.repository.user(email: "leesoon7@example.com"))
            #expect(try await h.repository.sessions(userID: user.id).map(\.remember) == [true])
            #expect(
                await accountError { _ = try await h.service.isRegistered(email: "Abc@x") }
                    == .invalidEmail(.localUppercase))
        }
    }

    @Test("withdraw needs the password, deletes user and sessions, and frees the email", arguments: backends)
    func withdraw(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let first = try await h.signUp()
            let second = try await h.service.login(email: "leesoon7@example.com", password: password, remember: true)
            #expect(
                await accountError { try await h.service.withdraw(token: first.token, password: "Wrong-Kayak-42") }
                    == .wrongPassword(current: false))
            #expect(try await h.repository.userCount() == 1)
            try await h.service.withdraw(token: first.token, password: password)
            #expect(try await h.repository.userCount() == 0)
            #expect(await accountError { _ = try await h.service.sessions.whoami(token: second.token) } == .notSignedIn)
            let again = try await h.signUp(nickname: "돌아온 이순신")
            #expect(again.profile.nickname == "돌아온 이순신")
        }
    }

    @Test(
        "a refused password change or withdrawal leaves the session exactly as it was (not even touched)",
        arguments: backends)
    func refusedChangeTouchesNothing(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let signedIn = try await h.signUp()
            let tokenHash = SHA256TokenDigester().digest(signedIn.token)
            let before = try #require(try await h.repository.session(tokenHash: tokenHash))
            // Past the touch interval: a plain lookup would now refresh the idle timer.
            h.clock.advance(seconds: 120)
            let newPassword = "Quokka-Lantern-77"
            #expect(
                await accountError {
                    try await h.service.changePassword(
                        token: signedIn.token, currentPassword: "Wrong-Kayak-42", newPassword: newPassword,
                        confirmation: newPassword)
                } == .wrongPassword(current: true))
            #expect(
                await accountError { try await h.service.withdraw(token: signedIn.token, password: "Wrong-Kayak-42") }
                    == .wrongPassword(current: false))
            // What passwd and withdraw check first, at the CLI, changes nothing either.
            _ = try await h.service.sessions.whoami(token: signedIn.token, touching: false)
            #expect(try await h.repository.session(tokenHash: tokenHash) == before)
            _ = try await h.service.sessions.whoami(token: signedIn.token)
            let touched = try #require(try await h.repository.session(tokenHash: tokenHash))
            #expect(touched.lastSeenAt > before.lastSeenAt, "an ordinary lookup still refreshes the idle timer")
        }
    }

    @Test("a successful login upgrades a hash made with weaker parameters", arguments: backends)
    func rehashOnLogin(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            try await h.signUp()
            let weak = try #require(try await h.repository.user(email: "leesoon7@example.com")).passwordHash
            #expect(weak.contains("m=8,t=1"))
            let stronger = h.service(with: Argon2idPasswordHasher(opsLimit: 2, memLimitBytes: 64 * 1024))
            _ = try await stronger.login(email: "leesoon7@example.com", password: password, remember: false)
            let upgraded = try #require(try await h.repository.user(email: "leesoon7@example.com")).passwordHash
            #expect(upgraded.hasPrefix("$argon2id$v=19$m=64,t=2,p=1$"))
            #expect(
                try await h.service.login(email: "leesoon7@example.com", password: password, remember: false).profile
                    .nickname == "이순신")
        }
    }
}
