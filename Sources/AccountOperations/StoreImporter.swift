import AccountCore

/// What an import did.
public struct ImportReport: Sendable {
    /// Users written.
    public var imported = 0
    /// Sessions written.
    public var sessions = 0
    /// Emails already in the store (with `merge`), left as they were.
    public var conflicts: [String] = []
}

/// An export file that has been read through and found sound.
public struct ValidatedExport: Sendable {
    /// The file.
    public let path: String
    /// Its header.
    public let header: ExportHeader
}

/// Loads an export file into a store: the whole file is checked first (before the store is
/// even opened), so a truncated or edited file writes nothing.
public enum StoreImporter {
    /// Users written per transaction.
    static let batchSize = 1_000

    /// Reads the whole file and checks it.
    /// - Throws: `invalidExport` naming the first bad line.
    public static func validate(_ path: String) throws(AccountError) -> ValidatedExport {
        do {
            return ValidatedExport(path: path, header: try ExportFileReader.validate(path: path))
        } catch {
            throw error.addingOutcome("nothing was written")
        }
    }

    /// Imports a validated file into `store`.
    /// - Parameters:
    ///   - file: a file `validate(_:)` accepted.
    ///   - store: the store to load.
    ///   - merge: allow a non-empty store; an email (or id) already there is reported as a
    ///     conflict and never overwritten.
    ///   - progress: called with the number of users done after each batch.
    /// - Throws: `storeNotEmpty` without `merge` when the store holds users.
    public static func importFile(
        _ file: ValidatedExport, into store: any UserRepository, merge: Bool,
        progress: (_ usersDone: Int) -> Void = { _ in }
    ) async throws -> ImportReport {
        let path = file.path
        if !merge {
            let existing = try await store.userCount()
            guard existing == 0 else {
                throw AccountError.storeNotEmpty(
                    detail:
                        "it holds \(EnglishPlural.count(existing, "user")); nothing was written; use --merge to add to it"
                )
            }
        }
        let reader = try ExportFileReader(path: path)
        var report = ImportReport()
        var users: [UserRecord] = []
        var sessions: [SessionRecord] = []
        // Whether a batch was being written when an error came: a store that fails after its
        // commit (a folder that cannot be synced) may have kept that batch.
        var writing = false
        func flush() async throws {
            // Each batch lands whole, users with their sessions, or not at all.
            writing = true
            let skipped = Set(try await store.createUsers(users, sessions: sessions))
            writing = false
            report.conflicts += users.map(\.email).filter(skipped.contains)
            report.imported += users.count - skipped.count
            let storedIDs = Set(users.filter { !skipped.contains($0.email) }.map(\.id))
            report.sessions += sessions.filter { storedIDs.contains($0.userID) }.count
            users.removeAll(keepingCapacity: true)
            sessions.removeAll(keepingCapacity: true)
            progress(report.imported + report.conflicts.count)
        }
        var skippingID: UserID?
        do {
            while let record = try reader.next() {
                switch record {
                case .user(let user):
                    // An id already in the store (under another email) is a conflict too, not an error.
                    if merge, try await store.user(id: user.id) != nil {
                        report.conflicts.append(user.email)
                        skippingID = user.id
                        continue
                    }
                    skippingID = nil
                    // A full batch is written when the next user starts, never right after its
                    // last user: that user's session lines come after it and belong to its batch.
                    if users.count >= batchSize { try await flush() }
                    users.append(user)
                case .session(let session):
                    if session.userID != skippingID { sessions.append(session) }
                }
            }
            try await flush()
        } catch var error as AccountError {
            if case .invalidExport = error {
                // `validate(_:)` accepted the file, so it was changed or replaced since.
                error = error.addingOutcome("the file changed after it was checked")
            }
            guard report.imported > 0 || report.sessions > 0 || writing else {
                if case .invalidExport = error { throw error.addingOutcome("nothing was written") }
                throw error
            }
            let inFlight =
                writing
                ? "; the batch being written (\(EnglishPlural.count(users.count, "user"))) may or may not have been stored"
                : ""
            throw error.addingOutcome(
                "\(EnglishPlural.count(report.imported, "user")) and \(EnglishPlural.count(report.sessions, "session")) had been imported before this failure\(inFlight); run the same import with --merge to add the rest (what is already there is skipped)"
            )
        }
        report.conflicts.sort()
        return report
    }
}
