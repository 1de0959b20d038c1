public import AccountCore
import AccountCrypto

/// What an export or a digest covered.
public struct TransferSummary: Sendable, Hashable {
    /// Users written.
    public let users: Int
    /// Sessions written.
    public let sessions: Int
    /// SHA-256 (hex) of the records in email order.
    public let digest: String
    /// Mails queued in the source, which a transfer does not carry (see ``ExportFormat``).
    public var mailLeftQueued = 0
}

/// Streams a store out as export lines, page by page, in email order.
public enum StoreExporter {
    /// Writes the whole export through `write` (one line per call, without the newline).
    /// - Throws: `storeBusy` when the store changed while it was being read (retry the export).
    public static func export(
        _ store: any UserRepository, sourceBackend: String, withSessions: Bool, now: Timestamp,
        progress: (_ usersDone: Int) -> Void = { _ in }, write: (String) throws -> Void
    ) async throws -> TransferSummary {
        let expected = try await store.userCount()
        let info = try await store.storeInfo()
        let lastUserNumber = try await store.lastUserNumber()
        var file = SHA256Stream()
        func emit(_ line: String) throws {
            try write(line)
            file.update(line)
            file.update("\n")
        }
        try emit(
            ExportFormat.header(
                sourceBackend: sourceBackend, storeID: info.storeID, users: expected, withSessions: withSessions,
                at: now, lastUserNumber: lastUserNumber))
        let summary = try await walk(store, withSessions: withSessions, progress: progress) { line in try emit(line) }
        guard summary.users == expected else {
            throw AccountError.storeBusy(
                detail:
                    "the store changed during the export (\(expected) users at the start, \(summary.users) read); export again"
            )
        }
        try write(ExportFormat.trailer(users: summary.users, sessions: summary.sessions, digest: file.hexDigest()))
        var done = summary
        done.mailLeftQueued = try await store.outboxSummary().queued
        return done
    }

    /// The digest of a store's records (users in email order, each with its sessions and
    /// identities): equal
    /// digests mean equal contents, whatever the backend.
    public static func digest(_ store: any UserRepository) async throws -> TransferSummary {
        try await walk(store, withSessions: true) { _ in }
    }

    /// Visits every record line in canonical order and digests them.
    static func walk(
        _ store: any UserRepository, withSessions: Bool, progress: (_ usersDone: Int) -> Void = { _ in },
        _ visit: (String) throws -> Void
    ) async throws -> TransferSummary {
        var digest = SHA256Stream()
        var users = 0
        var sessions = 0
        for try await page in store.userPages(size: AccountAdministration.pageSize) {
            for user in page {
                let line = ExportFormat.line(user)
                try visit(line)
                digest.update(line + "\n")
                users += 1
                if withSessions {
                    for session in try await store.sessions(userID: user.id) {
                        let line = ExportFormat.line(session)
                        try visit(line)
                        digest.update(line + "\n")
                        sessions += 1
                    }
                }
                // An identity is a way in: leaving it behind would lock its owner out.
                for identity in try await store.identities(userID: user.id) {
                    let line = ExportFormat.line(identity)
                    try visit(line)
                    digest.update(line + "\n")
                }
            }
            progress(users)
        }
        return TransferSummary(users: users, sessions: sessions, digest: digest.hexDigest())
    }
}
