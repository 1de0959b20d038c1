import AccountCore
import AccountCrypto
import AccountMail
import AccountTestSupport
import Foundation
import MemoryBackend
import Synchronization
import Testing

/// Forgot password and proven emails in the account domain, with the outbox's sender and a
/// transport that records what it would hand to the relay.
@Suite("Recovery and verification")
struct RecoveryFlowTests {
    static let email = "leesoon7@example.com"
    static let newPassword = "Violet-Harbor-Compass-19"

    /// A recovery service and sender over a fresh memory store.
    struct Rig {
        let h: ServiceHarness
        let recovery: RecoveryService
        let transport = RecordingTransport()

        var sender: OutboxSender {
            OutboxSender(
                recovery: recovery, transport: transport,
                texts: AccountMailTexts(publicURL: "https://accounts.example.com/", from: "accounts@example.com"))
        }

        /// The code in the last mail sent.
        func lastCode() throws -> String {
            let text = try #require(transport.sent.last?.text)
            let line = try #require(
                text.split(separator: "\n").first { $0.hasPrefix("Code: ") || $0.hasPrefix("코드: ") })
            return String(line.split(separator: " ").last ?? "")
        }
    }

    static func with(_ body: (Rig) async throws -> Void) async throws {
        try await ServiceHarness.with(MemoryBackendDescriptor()) { h in
            let recovery = RecoveryService(accounts: h.service, codes: KeyedRequestCodes(key: HMACKey.random()))
            try await body(Rig(h: h, recovery: recovery))
        }
    }

    @Test("a request for a registered email and one for an unknown email do the same store work and answer alike")
    func requestsAlike() async throws {
        try await Self.with { rig in
            try await rig.h.signUp(Self.email)
            try await rig.recovery.requestPasswordReset(email: "LeeSoon7@Example.com", language: .english)
            try await rig.recovery.requestPasswordReset(email: "nobody@example.com", language: .english)
            let queued = try await rig.h.repository.dueMail(at: rig.recovery.now(), limit: 10)
            #expect(queued.map(\.recipient).sorted() == ["leesoon7@example.com", "nobody@example.com"])
            #expect(queued.allSatisfy { $0.payload.isEmpty && $0.kind == "password_reset" })
            let pass = try await rig.sender.deliverDue()
            #expect(pass.sent == 1 && pass.dropped == 1)
            #expect(rig.transport.sent.map(\.recipient) == [Self.email])
            #expect(try await rig.h.repository.outboxSummary().queued == 0)
        }
    }

    @Test("the code resets the password once, revokes every session, proves the email, and signs the device in")
    func resetOnce() async throws {
        try await Self.with { rig in
            let old = try await rig.h.signUp(Self.email)
            try await rig.recovery.requestPasswordReset(email: Self.email, language: .korean)
            _ = try await rig.sender.deliverDue()
            let code = try rig.lastCode()
            #expect(
                rig.transport.sent.last?.text.contains("https://accounts.example.com/reset-password?code=\(code)")
                    == true)
            // The store holds the code's digest only.
            #expect(try await rig.h.repository.code(hash: code) == nil)
            #expect(try await rig.h.repository.code(hash: SHA256TokenDigester().digest(code)) != nil)
            let signedIn = try await rig.recovery.resetPassword(
                code: code, password: Self.newPassword, confirmation: Self.newPassword, device: "phone")
            #expect(signedIn.profile.emailVerifiedAt != nil)
            #expect(try await rig.h.service.sessions.whoami(token: signedIn.token).email == Self.email)
            #expect(
                await accountError { _ = try await rig.h.service.sessions.whoami(token: old.token) } == .notSignedIn)
            _ = try await rig.h.service.login(email: Self.email, password: Self.newPassword, remember: false)
            #expect(
                await accountError {
                    _ = try await rig.recovery.resetPassword(
                        code: code, password: "Another-Harbor-Compass-20", confirmation: "Another-Harbor-Compass-20")
                } == .invalidCode)
        }
    }

    @Test("a refused password lists every broken rule and leaves the code usable")
    func rulesFirst() async throws {
        try await Self.with { rig in
            try await rig.h.signUp(Self.email)
            try await rig.recovery.requestPasswordReset(email: Self.email, language: .english)
            _ = try await rig.sender.deliverDue()
            let code = try rig.lastCode()
            do {
                _ = try await rig.recovery.resetPassword(code: code, password: "leesoon7", confirmation: "other")
                Issue.record("a weak password was taken")
            } catch let invalid as InvalidForm<NewPasswordField> {
                #expect(invalid.check.brokenRules.count >= 2, "\(invalid.check.brokenRules)")
            }
            _ = try await rig.recovery.resetPassword(
                code: code, password: Self.newPassword, confirmation: Self.newPassword)
        }
    }

    @Test("a new request replaces the code; an expired code, a withdrawn account's code and a guess are refused")
    func refusedCodes() async throws {
        try await Self.with { rig in
            try await rig.h.signUp(Self.email)
            try await rig.recovery.requestPasswordReset(email: Self.email, language: .english)
            _ = try await rig.sender.deliverDue()
            let first = try rig.lastCode()
            try await rig.recovery.requestPasswordReset(email: Self.email, language: .english)
            _ = try await rig.sender.deliverDue()
            let second = try rig.lastCode()
            #expect(first != second)
            let reset = { (code: String) in
                await accountError {
                    _ = try await rig.recovery.resetPassword(
                        code: code, password: Self.newPassword, confirmation: Self.newPassword)
                }
            }
            #expect(await reset(first) == .invalidCode)
            #expect(await reset(String(repeating: "0", count: 64)) == .invalidCode)
            #expect(await reset("not a code") == .invalidCode)
            rig.h.clock.advance(seconds: rig.recovery.policy.codeLifetimeSeconds)
            #expect(await reset(second) == .invalidCode)
            // A code sent, then the account withdrawn: the code is gone with it.
            try await rig.recovery.requestPasswordReset(email: Self.email, language: .english)
            _ = try await rig.sender.deliverDue()
            let third = try rig.lastCode()
            let session = try await rig.h.service.login(
                email: Self.email, password: ServiceHarness.password, remember: false)
            try await rig.h.service.withdraw(token: session.token, password: ServiceHarness.password)
            #expect(await reset(third) == .invalidCode)
        }
    }

    @Test("a fourth request for one address in the window is refused, whether an account holds it or not")
    func perAddressLimit() async throws {
        try await Self.with { rig in
            try await rig.h.signUp(Self.email)
            for email in [Self.email, "nobody@example.com"] {
                for _ in 1...rig.recovery.policy.requestsPerWindow {
                    try await rig.recovery.requestPasswordReset(email: email, language: .english)
                }
                let refused = await accountError {
                    try await rig.recovery.requestPasswordReset(email: email, language: .english)
                }
                guard case .tooManyAttempts = refused else {
                    Issue.record("\(email): \(String(describing: refused))")
                    continue
                }
            }
        }
    }

    @Test("a verification code proves the email once; a proven account is sent no more")
    func verification() async throws {
        try await Self.with { rig in
            let session = try await rig.h.signUp(Self.email)
            try await rig.recovery.requestEmailVerification(token: session.token, language: .english)
            _ = try await rig.sender.deliverDue()
            let code = try rig.lastCode()
            #expect(rig.transport.sent.last?.text.contains("/verify-email?code=\(code)") == true)
            #expect(try await rig.recovery.verifyEmail(code: code).emailVerifiedAt == rig.recovery.now())
            #expect(await accountError { try await rig.recovery.verifyEmail(code: code) } == .invalidCode)
            try await rig.recovery.requestEmailVerification(email: Self.email, language: .english)
            #expect(try await rig.sender.deliverDue().dropped == 1)
        }
    }

    @Test(
        "with proof required, sign-up queues the mail in its language; login waits for the proof, after the right password"
    )
    func requiredProof() async throws {
        try await Self.with { rig in
            let strict = AccountService(
                repository: rig.h.repository, hasher: Argon2idPasswordHasher.fastForTests,
                strength: ZxcvbnStrengthEstimator(), digester: SHA256TokenDigester(), random: rig.h.random,
                clock: rig.h.clock, requireVerifiedEmail: true)
            let recovery = RecoveryService(accounts: strict, codes: KeyedRequestCodes(key: HMACKey.random()))
            _ = try await strict.signUp(
                email: Self.email, password: ServiceHarness.password, confirmation: ServiceHarness.password,
                nickname: "이순신", language: .korean)
            let queued = try await rig.h.repository.dueMail(at: rig.recovery.now(), limit: 10)
            #expect(queued.map(\.kind) == ["email_verification"] && queued.map(\.language) == ["ko"])
            #expect(
                await accountError {
                    _ = try await strict.login(email: Self.email, password: "Wrong-Guess-123", remember: false)
                }
                    == .invalidCredentials)
            #expect(
                await accountError {
                    _ = try await strict.login(email: Self.email, password: ServiceHarness.password, remember: false)
                } == .emailNotVerified)
            let mail = try #require(queued.first)
            let code = try #require(try await recovery.prepare(mail)).code
            try await recovery.verifyEmail(code: code)
            _ = try await strict.login(email: Self.email, password: ServiceHarness.password, remember: false)
            // A taken email queues nothing.
            #expect(
                await accountError {
                    _ = try await strict.signUp(
                        email: Self.email, password: ServiceHarness.password, confirmation: ServiceHarness.password,
                        nickname: "다른 사람")
                } == .emailTaken)
            #expect(try await rig.h.repository.outboxSummary().queued == 1, "only the first sign-up's mail")
        }
    }

    @Test("a failed send stays queued and is tried again after a doubling backoff, with the same code")
    func retriesWithTheSameCode() async throws {
        try await Self.with { rig in
            try await rig.h.signUp(Self.email)
            try await rig.recovery.requestPasswordReset(email: Self.email, language: .english)
            rig.transport.failures.withLock { $0 = 2 }
            #expect(try await rig.sender.deliverDue().deferred == 1)
            let queued = try #require(
                try await rig.h.repository.dueMail(at: .init(millisecondsSince1970: .max), limit: 1).first)
            #expect(queued.attempts == 1 && queued.lastError?.contains("451") == true)
            #expect(try await rig.sender.deliverDue().sent == 0, "tried again before its backoff")
            rig.h.clock.advance(seconds: OutboxSender.backoff(afterAttempts: 1))
            #expect(try await rig.sender.deliverDue().deferred == 1)
            rig.h.clock.advance(seconds: OutboxSender.backoff(afterAttempts: 2))
            #expect(try await rig.sender.deliverDue().sent == 1)
            let codes = rig.transport.attemptedCodes.withLock { $0 }
            #expect(codes.count == 3 && Set(codes).count == 1, "a retry carried another code")
            #expect(OutboxSender.backoff(afterAttempts: 1) * 2 == OutboxSender.backoff(afterAttempts: 2))
            #expect(OutboxSender.backoff(afterAttempts: 30) == OutboxSender.longestRetrySeconds)
        }
    }

    @Test("two senders racing over one outbox send each mail once")
    func leasedOnce() async throws {
        try await Self.with { rig in
            for n in 1...3 {
                try await rig.h.signUp("member\(n)@example.com", nickname: "member\(n)")
                try await rig.recovery.requestPasswordReset(email: "member\(n)@example.com", language: .english)
            }
            let sender = rig.sender
            async let one = sender.deliverDue()
            async let two = sender.deliverDue()
            let passes = try await [one, two]
            #expect(passes.map(\.sent).reduce(0, +) == 3)
            #expect(rig.transport.sent.count == 3)
        }
    }
}

/// Records the messages a sender hands on; fails the first `failures` sends with a 451.
final class RecordingTransport: MailTransport {
    let messages = Mutex<[MailMessage]>([])
    let failures = Mutex(0)
    let attemptedCodes = Mutex<[String]>([])

    var sent: [MailMessage] { messages.withLock { $0 } }

    func send(_ message: MailMessage) async throws(MailDeliveryError) {
        if let line = message.text.split(separator: "\n").first(where: { $0.hasPrefix("Code: ") }) {
            attemptedCodes.withLock { $0.append(String(line)) }
        }
        let fail = failures.withLock { count -> Bool in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
        if fail { throw .refused(step: "the sender", reply: "451 4.3.0 try later") }
        messages.withLock { $0.append(message) }
    }
}
