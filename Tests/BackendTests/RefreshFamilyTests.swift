import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountTestSupport
import MemoryBackend
import StandardBackends
import Testing

/// Refresh tokens rotate, and a replaced token presented again is the sign of a copy: within
/// the grace it is only refused, after it the whole family of sessions is signed out (RFC 9700
/// §4.14.2), on every backend.
@Suite("Refresh families")
struct RefreshFamilyTests {
    static let backends: [any BackendDescriptor] = [MemoryBackendDescriptor()] + BackendRegistry.embedded.descriptors

    @Test(
        "a replaced token is refused within the grace and leaves its successor; later it signs out its family, and only it",
        arguments: backends)
    func replayRevokesTheFamily(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let laptop = try await h.signUp()
            let phone = try await h.service.login(
                email: laptop.profile.email, password: ServiceHarness.password, remember: true, device: "phone")
            let second = try await h.service.sessions.refresh(token: phone.token)
            let third = try await h.service.sessions.refresh(token: second.token)
            let grace = h.service.sessionPolicy.refreshReuseGraceSeconds
            h.clock.advance(seconds: grace)
            #expect(await accountError { _ = try await h.service.sessions.refresh(token: phone.token) } == .notSignedIn)
            #expect(
                await accountError { _ = try await h.service.sessions.refresh(token: second.token) } == .notSignedIn)
            #expect(try await h.service.sessions.whoami(token: third.token).email == laptop.profile.email)
            h.clock.advance(seconds: 1)
            // The second token, replaced a grace and a second ago, comes back: a copy.
            #expect(
                await accountError { _ = try await h.service.sessions.refresh(token: second.token) } == .notSignedIn)
            #expect(await accountError { _ = try await h.service.sessions.whoami(token: third.token) } == .notSignedIn)
            #expect(try await h.service.sessions.whoami(token: laptop.token).email == laptop.profile.email)
            #expect(try await h.repository.sessions(userID: laptop.profile.id).count == 1)
        }
    }

    @Test("of twenty refreshes racing with one token, one wins, and its token keeps working", arguments: backends)
    func racingRefreshes(_ backend: any BackendDescriptor) async throws {
        try await ServiceHarness.with(backend) { h in
            let session = try await h.signUp()
            let sessions = h.service.sessions
            let outcomes = await withTaskGroup(of: SignedInSession?.self) { group in
                for _ in 1...20 { group.addTask { try? await sessions.refresh(token: session.token) } }
                return await group.reduce(into: [SignedInSession?]()) { $0.append($1) }
            }
            let winners = outcomes.compactMap { $0 }
            #expect(winners.count == 1, "\(winners.count) refreshes won")
            let winner = try #require(winners.first)
            #expect(try await sessions.whoami(token: winner.token).email == session.profile.email)
            #expect(try await h.repository.sessions(userID: session.profile.id).count == 1)
        }
    }

    @Test("a token never given is only refused, and a replaced one is remembered by its digest alone")
    func unknownTokenAndDigest() async throws {
        try await ServiceHarness.with(MemoryBackendDescriptor()) { h in
            let session = try await h.signUp()
            let renewed = try await h.service.sessions.refresh(token: session.token)
            #expect(
                await accountError {
                    _ = try await h.service.sessions.refresh(token: String(repeating: "a", count: 64))
                }
                    == .notSignedIn)
            #expect(try await h.service.sessions.whoami(token: renewed.token).email == session.profile.email)
            #expect(try await h.repository.rotatedToken(tokenHash: SHA256TokenDigester().digest(session.token)) != nil)
        }
    }
}
