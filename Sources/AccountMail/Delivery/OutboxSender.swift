public import AccountCore
import Foundation

/// Sends the outbox: each due mail is leased (so two senders, in two processes, never both
/// send it), composed (``RecoveryService/prepare(_:)``), handed to the relay, and removed once
/// the relay accepted it. A failure leaves the mail queued with its attempt counted, tried
/// again after a backoff that doubles from its first retry (``firstRetrySeconds`` by default)
/// to ``longestRetrySeconds``.
///
/// A mail is removed only after the relay's acceptance: a crash between the two sends it
/// again (at least once, and exactly once as far as the relay's acceptance tells), with the
/// same code, since a request's code is made from its id.
public struct OutboxSender: Sendable {
    public static let firstRetrySeconds: Int64 = 30
    public static let longestRetrySeconds: Int64 = 3_600
    /// How long a leased mail is left to its sender before another may take it.
    public static let leaseSeconds: Int64 = 300

    private let recovery: RecoveryService
    private let transport: any MailTransport
    private let texts: AccountMailTexts
    private let firstRetry: Int64

    public init(
        recovery: RecoveryService, transport: any MailTransport, texts: AccountMailTexts,
        firstRetrySeconds: Int64 = OutboxSender.firstRetrySeconds
    ) {
        self.recovery = recovery
        self.transport = transport
        self.texts = texts
        firstRetry = firstRetrySeconds
    }

    private var repository: any UserRepository { recovery.accounts.repository }

    /// Sends every mail due now, up to `limit`.
    public func deliverDue(limit: Int = 50) async throws -> DeliveryPass {
        var pass = DeliveryPass()
        let now = recovery.now()
        for mail in try await repository.dueMail(at: now, limit: limit) {
            try await deliver(mail, at: now, into: &pass)
        }
        return pass
    }

    private func deliver(_ mail: OutboxMail, at now: Timestamp, into pass: inout DeliveryPass) async throws {
        guard
            try await repository.leaseMail(
                id: mail.id, from: mail.notBefore, until: now.adding(seconds: Self.leaseSeconds))
        else { return }
        guard let prepared = try await recovery.prepare(mail) else {
            _ = try await repository.deleteMail(id: mail.id)
            pass.dropped += 1
            return
        }
        let date = Date(timeIntervalSince1970: Double(now.millisecondsSince1970) / 1000)
        do {
            try await transport.send(texts.message(prepared, id: mail.id, date: date))
        } catch {
            pass.lastFailure = error.summary
            guard error.isWorthRetrying else {
                _ = try await repository.deleteMail(id: mail.id)
                pass.dropped += 1
                return
            }
            let attempts = mail.attempts + 1
            _ = try await repository.rescheduleMail(
                id: mail.id, attempts: attempts,
                notBefore: now.adding(seconds: Self.backoff(afterAttempts: attempts, first: firstRetry)),
                lastError: error.summary)
            pass.deferred += 1
            return
        }
        _ = try await repository.deleteMail(id: mail.id)
        pass.sent += 1
    }

    /// Seconds before the next try of a mail that failed `attempts` times.
    public static func backoff(afterAttempts attempts: Int, first: Int64 = firstRetrySeconds) -> Int64 {
        let doublings = min(max(attempts - 1, 0), 20)
        return min(longestRetrySeconds, first << doublings)
    }
}
