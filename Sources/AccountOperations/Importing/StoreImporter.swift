public import AccountCore

/// What an import did.
public struct ImportReport: Sendable {
    /// Users written.
    public var imported = 0
    /// Sessions written.
    public var sessions = 0
    /// Provider identities linked.
    public var identities = 0
    /// Emails already in the store (with `merge`), left as they were.
    public var conflicts: [String] = []
    /// Users whose number (from the file, or the source's integer id) is held by another user
    /// of the store: they were stored with the store's next numbers instead.
    public var renumbered = 0
    /// Users an earlier, interrupted run of this import had stored: found, not written again.
    public var alreadyImported = 0
    /// Whether this run went on with an import of the same file that did not finish.
    public var resumed = false
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
    /// - Throws: `storeNotEmpty` without `merge` when the store holds users (unless an import
    ///   of this same file did not finish there: it is resumed, see `ImportRun`).
    public static func importFile(
        _ file: ValidatedExport, into store: any UserRepository, merge: Bool,
        progress: (_ usersDone: Int) -> Void = { _ in }
    ) async throws -> ImportReport {
        let path = file.path
        let fingerprint: String
        do {
            fingerprint = try FileFingerprint.of(path) { reason in
                AccountError.invalidExport(detail: ErrorDetail([.text("\(file.name): \(reason)")]))
            }
        } catch {
            throw error.addingOutcome(.nothingWritten)
        }
        var run = try await ImportRun.begin(
            store, fingerprint: fingerprint, highestNumber: file.header.lastUserNumber, merge: merge)
        var users: [(user: UserRecord, sourceID: String?)] = []
        var sessions: [SessionRecord] = []
        var identities: [ProviderIdentity] = []
        func flush() async throws {
            // Each batch lands whole, users with their sessions, or not at all.
            try await run.write(users, sessions: sessions, idMap: nil)
            try await link(identities, in: store, report: &run.report)
            users.removeAll(keepingCapacity: true)
            sessions.removeAll(keepingCapacity: true)
            identities.removeAll(keepingCapacity: true)
            progress(run.report.imported + run.report.alreadyImported + run.report.conflicts.count)
        }
        var skippingID: UserID?
        do {
            let reader = try ExportFileReader(path: path, shownAs: file.name, skippingInvalid: file.skippingInvalid)
            while let record = try reader.next() {
                switch record {
                case .user(let user):
                    // An id already in the store under another email is a conflict too, not an error.
                    if run.lookingUp, let holder = try await store.user(id: user.id), holder.email != user.email {
                        run.report.conflicts.append(user.email)
                        skippingID = user.id
                        continue
                    }
                    skippingID = nil
                    // A full batch is written when the next user starts, never right after its
                    // last user: that user's session lines come after it and belong to its batch.
                    if users.count >= batchSize { try await flush() }
                    users.append((user, nil))
                case .session(let session):
                    if session.userID != skippingID { sessions.append(session) }
                case .identity(let identity):
                    if identity.userID != skippingID { identities.append(identity) }
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
            throw run.failed(error)
        }
        return try await run.finish()
    }

    /// Links the identities of a batch just written. One whose user was not written (its email
    /// was a conflict) is left out with it; one a resumed run had linked is found, not linked
    /// again; one held by another user of the store is a conflict, named by its user's email.
    static func link(_ identities: [ProviderIdentity], in store: any UserRepository, report: inout ImportReport)
        async throws
    {
        for identity in identities {
            if let held = try await store.identity(provider: identity.provider, subject: identity.subject) {
                if held.userID != identity.userID, let user = try await store.user(id: identity.userID) {
                    report.conflicts.append(user.email)
                }
                continue
            }
            if try await store.linkIdentity(identity) { report.identities += 1 }
        }
    }
}
