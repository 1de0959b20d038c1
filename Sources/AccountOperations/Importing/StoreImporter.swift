public import AccountCore

/// What an import did.
public struct ImportReport: Sendable {
    /// Users written.
    public var imported = 0
    /// Sessions written.
    public var sessions = 0
    /// Emails already in the store (with `merge`), left as they were.
    public var conflicts: [String] = []
    /// Users whose number (from the file, or the source's integer id) is held by another user
    /// of the store: they were stored with the store's next numbers instead.
    public var renumbered = 0
}

/// An export file that has been read through and found sound.
public struct ValidatedExport: Sendable {
    /// The file.
    public let path: String
    /// What messages call it: `path`, or what `path` is a copy of.
    public let name: String
    /// Its header.
    public let header: ExportHeader
    /// The users that break a rule of stored records, when they are to be skipped (otherwise
    /// the file is refused).
    public let refused: [RefusedRecord]
    /// Whether the users that break a rule are left out (otherwise the file was refused).
    public let skippingInvalid: Bool
}

/// Loads an export file into a store: the whole file is checked first (before the store is
/// even opened), so a truncated or edited file writes nothing.
public enum StoreImporter {
    /// Users written per transaction.
    static let batchSize = 1_000

    /// Reads the whole file and checks it.
    /// - Parameters:
    ///   - path: the file to read.
    ///   - name: what messages call the file, when `path` is a copy of it.
    ///   - skippingInvalid: collect the users that break a rule of stored records (email,
    ///     nickname) to be left out, instead of refusing the file.
    /// - Throws: `invalidExport` naming the first bad line (and the rule, for a user that
    ///   breaks one).
    public static func validate(
        _ path: String, shownAs name: String? = nil, skippingInvalid: Bool = false
    ) throws(AccountError) -> ValidatedExport {
        do {
            let (header, refused) = try ExportFileReader.validate(
                path: path, shownAs: name, skippingInvalid: skippingInvalid)
            return ValidatedExport(
                path: path, name: name ?? path, header: header, refused: refused, skippingInvalid: skippingInvalid)
        } catch {
            throw error.addingOutcome(.nothingWritten)
        }
    }

    /// The user numbers `store` holds (and every one it ever gave, up to its highest), read
    /// before an import: a user whose number is among them gets the store's next number
    /// instead, so that a number an app may still keep for someone is never handed to another.
    static func takenNumbers(in store: any UserRepository) async throws -> (held: Set<Int>, last: Int) {
        var held = Set<Int>()
        for try await page in store.userPages(size: AccountAdministration.pageSize) {
            for user in page { if let number = user.number { held.insert(number) } }
        }
        return (held, try await store.lastUserNumber())
    }

    /// `users` with every number that `taken` rules out cleared, for the store to number them:
    /// one held by a user of the store, or any up to the highest it ever gave (it may have been
    /// a withdrawn user's, and stays retired). Into a new store every number is kept.
    static func keepingFreeNumbers(_ users: [UserRecord], taken: (held: Set<Int>, last: Int)) -> [UserRecord] {
        users.map { user in
            guard let number = user.number, taken.held.contains(number) || number <= taken.last else { return user }
            var moved = user
            moved.number = nil
            return moved
        }
    }

    /// Raises the store's highest number to the file's (`last`), before any user is written:
    /// the users whose numbers are kept are then never given to a sign-up during the import,
    /// users renumbered in one batch never take a number a later batch keeps, and numbers up to
    /// the source's highest stay retired here too (a withdrawn user's is never given again).
    static func reserveNumbers(upTo last: Int?, in store: any UserRepository, taken: (held: Set<Int>, last: Int))
        async throws
    {
        guard let last, last > taken.last else { return }
        try await store.raiseLastUserNumber(to: last)
    }

    /// Throws `storeNotEmpty` when `store` holds users (an import without `merge` needs an
    /// empty store).
    static func requireEmpty(_ store: any UserRepository) async throws {
        let existing = try await store.userCount()
        guard existing == 0 else {
            throw AccountError.storeNotEmpty(
                detail: ErrorDetail([
                    .outcome(.holdsUsers(existing)), .outcome(.nothingWritten), .outcome(.useMergeToAdd),
                ])
            )
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
        if !merge { try await requireEmpty(store) }
        var report = ImportReport()
        let taken = try await takenNumbers(in: store)
        try await reserveNumbers(upTo: file.header.lastUserNumber, in: store, taken: taken)
        var users: [UserRecord] = []
        var sessions: [SessionRecord] = []
        // Whether a batch was being written when an error came: a store that fails after its
        // commit (a folder that cannot be synced) may have kept that batch.
        var writing = false
        func flush() async throws {
            // Each batch lands whole, users with their sessions, or not at all.
            writing = true
            let numbered = keepingFreeNumbers(users, taken: taken)
            let skipped = Set(try await store.createUsers(numbered, sessions: sessions))
            writing = false
            report.renumbered +=
                numbered.indices.filter {
                    numbered[$0].number != users[$0].number && !skipped.contains(users[$0].email)
                }.count
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
            let reader = try ExportFileReader(path: path, shownAs: file.name, skippingInvalid: file.skippingInvalid)
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
                case .refused(let refused):
                    // Counted by `validate(_:skippingInvalid:)`; left out with its sessions.
                    skippingID = refused.user.id
                }
            }
            try await flush()
        } catch var error as AccountError {
            if case .invalidExport = error {
                // `validate(_:)` accepted the file, so it was changed or replaced since.
                error = error.addingOutcome(.fileChangedAfterCheck)
            }
            guard report.imported > 0 || report.sessions > 0 || writing else {
                if case .invalidExport = error { throw error.addingOutcome(.nothingWritten) }
                throw error
            }
            throw error.addingOutcome(
                .importedBeforeFailure(
                    users: report.imported, sessions: report.sessions, batchInFlight: writing ? users.count : nil))
        }
        report.conflicts.sort()
        return report
    }
}
