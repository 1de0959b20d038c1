import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountTestSupport
import MemoryBackend
import Testing

/// Where a user is signed in: listing their sessions, and signing one, the others or all out.
@Suite("Session list")
struct SessionListTests {
    static let backends: [any BackendDescriptor] = [MemoryBackendDescriptor()]
    let password = ServiceHarness.password

    /// Signs `email` in again on `device`, a minute later than the clock says.
    private func login(_ h: ServiceHarness, _ email: String, device: String) async throws -> SignedInSession {
        h.clock.advance(seconds: 60)
        return try await h.service.login(email: email, password: password, remember: false, device: device)
    }

    @Test(
        "the list names each device, the newest use first, marks the asking one, and shows no token or hash",
        arguments: backends)
    func listsSessions(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let first = try await h.service.signUp(
                email: "leesoon7@example.com", password: password, confirmation: password, nickname: "이순신",
                device: "Firefox on Linux")
            let phone = try await login(h, "leesoon7@example.com", device: "내 휴대폰")
            let list = try await h.service.sessions.list(token: first.token)
            #expect(list.map(\.device) == ["내 휴대폰", "Firefox on Linux"])
            #expect(list.map(\.current) == [false, true])
            #expect(list[1].createdAt.secondsUntil(list[0].createdAt) == 60)
            let digester = SHA256TokenDigester()
            for (summary, token) in zip(list, [phone.token, first.token]) {
                #expect(summary.id.count == SessionSummary.idLength)
                #expect(!token.contains(summary.id) && !digester.digest(token).contains(summary.id))
            }
            // The same session has the same id whoever asks.
            #expect(try await h.service.sessions.list(token: phone.token).map(\.id) == list.map(\.id))
        }
    }

    @Test("revoking one session by id signs out that device only", arguments: backends)
    func revokesOne(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let laptop = try await h.signUp()
            let phone = try await login(h, "leesoon7@example.com", device: "phone")
            let id = try #require(try await h.service.sessions.list(token: laptop.token).first { $0.device == "phone" })
                .id
            try await h.service.sessions.revokeSession(token: laptop.token, id: id)
            #expect(await accountError { _ = try await h.service.sessions.whoami(token: phone.token) } == .notSignedIn)
            #expect(try await h.service.sessions.whoami(token: laptop.token).email == "leesoon7@example.com")
            #expect(
                await accountError { try await h.service.sessions.revokeSession(token: laptop.token, id: id) }
                    == .sessionNotFound)
        }
    }

    @Test("one user can neither see nor revoke another's sessions", arguments: backends)
    func noCrossUserAccess(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let lee = try await h.signUp()
            let kim = try await h.signUp("kimyuna5@example.com", nickname: "김연아")
            let kimsID = try #require(try await h.service.sessions.list(token: kim.token).first).id
            #expect(try await h.service.sessions.list(token: lee.token).map(\.id).contains(kimsID) == false)
            #expect(
                await accountError { try await h.service.sessions.revokeSession(token: lee.token, id: kimsID) }
                    == .sessionNotFound)
            #expect(try await h.service.sessions.whoami(token: kim.token).email == "kimyuna5@example.com")
            // Strapi's logout by device looks at the asker's sessions only.
            #expect(try await h.service.sessions.revokeSessions(token: lee.token, device: kimsID) == 0)
            #expect(try await h.service.sessions.whoami(token: kim.token).email == "kimyuna5@example.com")
        }
    }

    @Test("signing out everywhere else keeps the asking session; all signs out every one", arguments: backends)
    func revokesOthersAndAll(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let here = try await h.signUp()
            let a = try await login(h, "leesoon7@example.com", device: "a")
            let b = try await login(h, "leesoon7@example.com", device: "b")
            #expect(try await h.service.sessions.revokeOtherSessions(token: here.token) == 2)
            for gone in [a, b] {
                #expect(
                    await accountError { _ = try await h.service.sessions.whoami(token: gone.token) } == .notSignedIn)
            }
            #expect(try await h.service.sessions.list(token: here.token).map(\.current) == [true])
            let c = try await login(h, "leesoon7@example.com", device: "c")
            #expect(try await h.service.sessions.revokeSessions(token: here.token, device: "c") == 1)
            #expect(await accountError { _ = try await h.service.sessions.whoami(token: c.token) } == .notSignedIn)
            #expect(try await h.service.sessions.revokeAllSessions(token: here.token) == 1)
            #expect(await accountError { _ = try await h.service.sessions.whoami(token: here.token) } == .notSignedIn)
        }
    }

    @Test("an expired session is not listed", arguments: backends)
    func expiredNotListed(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            _ = try await h.signUp()
            h.clock.advance(seconds: h.service.sessionPolicy.idleTimeoutSeconds - 30)
            // The first session's idle time runs out 30 seconds after this login.
            let fresh = try await h.service.login(
                email: "leesoon7@example.com", password: password, remember: false, device: "fresh")
            h.clock.advance(seconds: 30)
            #expect(try await h.service.sessions.list(token: fresh.token).map(\.device) == ["fresh"])
        }
    }

    @Test(
        "a refresh gives a new token, ends the old one, and never moves the session's absolute expiry",
        arguments: backends)
    func refreshRotates(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let first = try await login(h, try await h.signUp().profile.email, device: "app")
            h.clock.advance(seconds: 120)
            let renewed = try await h.service.sessions.refresh(token: first.token)
            #expect(renewed.token != first.token)
            #expect(renewed.expiresAt == first.expiresAt)
            #expect(await accountError { _ = try await h.service.sessions.whoami(token: first.token) } == .notSignedIn)
            #expect(await accountError { _ = try await h.service.sessions.refresh(token: first.token) } == .notSignedIn)
            let listed = try await h.service.sessions.list(token: renewed.token).filter(\.current)
            #expect(listed.map(\.device) == ["app"])
            #expect(listed.first?.lastUsedAt == h.clock.now())
        }
    }

    @Test(
        "User-Agent strings name the browser and system, and nothing else of them",
        arguments: [
            ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
                "Safari on iPhone"
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                "Edge on Windows"
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
                "Chrome on Android"
            ),
            ("MyApp/1.0 CFNetwork/1568.100.1 Darwin/24.0.0", "MyApp"),
            ("curl/8.5.0", "curl"),
            ("<script>alert(1)</script>", ""),
            ("", ""),
        ])
    func userAgents(_ userAgent: String, _ expected: String) {
        #expect(DeviceName.describing(userAgent: userAgent) == expected)
        #expect(expected.isEmpty || DeviceName.accepts(expected))
    }

    @Test("a device name from a client is 1 to 64 visible characters, refused rather than trimmed")
    func deviceNameRule() {
        #expect(DeviceName.accepts("내 휴대폰 👩‍💻"))
        #expect(DeviceName.accepts(String(repeating: "é", count: 64)))
        #expect(!DeviceName.accepts(""))
        #expect(!DeviceName.accepts(String(repeating: "a", count: 65)))
        #expect(!DeviceName.accepts("phone\u{1B}[31m"))
        #expect(!DeviceName.accepts("phone\u{202E}"))
        #expect(!DeviceName.accepts("line\nbreak"))
    }

    @Test(
        "a device name the rule refuses is invalid_device_name from the service itself, and signs no one up or in",
        arguments: backends)
    func serviceRefusesBadDeviceNames(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let signedIn = try await h.signUp()
            for name in ["phone\u{0}", String(repeating: "a", count: 65), "phone\u{202E}", "line\nbreak"] {
                let signUp = await accountError {
                    _ = try await h.service.signUp(
                        email: "newcomer1@example.com", password: password, confirmation: password, nickname: "새사람",
                        device: name)
                }
                #expect(signUp == .invalidDeviceName, "\(name.debugDescription)")
                let login = await accountError {
                    _ = try await h.service.login(
                        email: "leesoon7@example.com", password: password, remember: false, device: name)
                }
                #expect(login == .invalidDeviceName, "\(name.debugDescription)")
            }
            #expect(try await h.repository.userCount() == 1, "a refused sign-up stored a user")
            #expect(
                try await h.service.sessions.list(token: signedIn.token).count == 1, "a refused login opened a session")
            // An empty name is an unknown device, as before.
            let unnamed = try await h.service.login(
                email: "leesoon7@example.com", password: password, remember: false, device: "")
            #expect(try await h.service.sessions.list(token: unnamed.token).first(where: \.current)?.device == "")
        }
    }
}
