import AccountCore

/// One import writing to a store: its checkpoint, the numbers it may not give, and what it
/// did so far. Begun before the first write, finished after the last.
struct ImportRun {
    let store: any UserRepository
    let fingerprint: String
    var taken: TakenNumbers
    /// The store's highest number given before this file's import reserved any: a number above
    /// it was never anyone's.
    let reservedAbove: Int
    var report = ImportReport()
    /// Whether a user may already be stored (a merge, or a resumed import): each is looked up.
    let lookingUp: Bool
    /// Users in the batch being written, when a failure comes.
    private var inFlight: Int?

    /// Reads the store's numbers and the file's checkpoint; writes the checkpoint and raises
    /// the highest number given to `highestNumber` when this is the file's first run. Without
    /// `merge` the store must be empty, unless it is this file's import that is resumed.
    static func begin(
        _ store: any UserRepository, fingerprint: String, highestNumber: Int?, merge: Bool
    ) async throws -> ImportRun {
        let checkpoint = try await ImportCheckpoint.read(store, fingerprint: fingerprint)
        if checkpoint == nil, !merge { try await StoreImporter.requireEmpty(store) }
        var taken = try await TakenNumbers.of(store)
        let reservation: ImportCheckpoint
        if let checkpoint {
            // The numbers reserved for this file are still its users', stored or not.
            reservation = checkpoint
            taken.retiredUpTo = min(taken.retiredUpTo, checkpoint.reservedAbove)
        } else {
            reservation = ImportCheckpoint(
                reservedAbove: taken.retiredUpTo, reservedTo: max(highestNumber ?? 0, taken.retiredUpTo))
            try await reservation.save(store, fingerprint: fingerprint)
        }
        // Numbers up to the file's highest are then never given to a sign-up during the import,
        // and a user renumbered in one batch never takes one a later batch keeps. Raised on a
        // resume too: a run stopped between saving its checkpoint and raising left it unraised.
        if try await store.lastUserNumber() < reservation.reservedTo {
            try await store.raiseLastUserNumber(to: reservation.reservedTo)
        }
        var run = ImportRun(
            store: store, fingerprint: fingerprint, taken: taken, reservedAbove: reservation.reservedAbove,
            lookingUp: merge || checkpoint != nil)
        run.report.resumed = checkpoint != nil
        return run
    }

    private init(
        store: any UserRepository, fingerprint: String, taken: TakenNumbers, reservedAbove: Int, lookingUp: Bool
    ) {
        self.store = store
        self.fingerprint = fingerprint
        self.taken = taken
        self.reservedAbove = reservedAbove
        self.lookingUp = lookingUp
    }

    /// Stores one batch (users with their source ids, and `sessions` of them) in one
    /// transaction. When the import is resumed, a user an earlier run of it stored (its email,
    /// with its creation time) is counted, not written, with its sessions; any other holder of
    /// its email is a conflict, left as it was.
    mutating func write(
        _ batch: [(user: UserRecord, sourceID: String?)], sessions: [SessionRecord] = [],
        idMap: ((IDMapEntry) throws -> Void)?
    ) async throws {
        guard !batch.isEmpty else { return }
        var writing: [(user: UserRecord, sourceID: String?)] = []
        for entry in batch {
            guard lookingUp, let stored = try await store.user(email: entry.user.email) else {
                writing.append(entry)
                continue
            }
            if report.resumed, stored.createdAt == entry.user.createdAt {
                report.alreadyImported += 1
                try idMap?(
                    IDMapEntry(
                        sourceID: entry.sourceID, email: stored.email, id: stored.id, number: stored.number ?? 0,
                        alreadyImported: true))
            } else {
                report.conflicts.append(entry.user.email)
            }
        }
        guard !writing.isEmpty else { return }
        let numbered = taken.keepingFree(writing)
        let writtenIDs = Set(numbered.map(\.id))
        let theirSessions = sessions.filter { writtenIDs.contains($0.userID) }
        inFlight = numbered.count
        let skipped = Set(try await store.createUsers(numbered, sessions: theirSessions))
        inFlight = nil
        let storedIDs = Set(numbered.filter { !skipped.contains($0.email) }.map(\.id))
        report.sessions += theirSessions.filter { storedIDs.contains($0.userID) }.count
        for (index, entry) in writing.enumerated() {
            let user = numbered[index]
            if skipped.contains(user.email) {
                report.conflicts.append(user.email)
                continue
            }
            report.imported += 1
            if user.number != entry.user.number { report.renumbered += 1 }
            if let number = user.number {
                taken.held.insert(number)
                taken.keptForRefused[number] = nil
            }
            guard let idMap else { continue }
            var number = user.number ?? 0
            if user.number == nil { number = try await store.user(email: user.email)?.number ?? 0 }
            try idMap(
                IDMapEntry(
                    sourceID: entry.sourceID, email: user.email, id: user.id, number: number, alreadyImported: false))
        }
    }

    /// The error a failure mid-import ends with: what was stored before it, and that running
    /// the import again goes on (the checkpoint stays); that no account was written, when none
    /// was and the file was at fault.
    func failed(_ error: AccountError) -> AccountError {
        guard report.imported > 0 || inFlight != nil else {
            if case .invalidExport = error { return error.addingOutcome(.nothingWritten) }
            return error
        }
        return error.addingOutcome(
            .importedBeforeFailure(users: report.imported, sessions: report.sessions, batchInFlight: inFlight))
    }

    /// Keeps the numbers of `refused` records (their source ids' numbers, reserved by this
    /// import and given to nobody) for them, removes the checkpoint (the import is done) and
    /// returns the report.
    func finish(keepingNumbersOf refused: [RefusedRecord] = []) async throws -> ImportReport {
        var taken = taken
        for record in refused {
            guard let number = record.user.number, let sourceID = record.sourceID, number > reservedAbove,
                !taken.held.contains(number)
            else { continue }
            taken.keptForRefused[number] = sourceID
        }
        do {
            try await taken.saveKeptForRefused(store)
            try await ImportCheckpoint.clear(store, fingerprint: fingerprint)
        } catch let error as AccountError {
            // Every user is stored by now: the failure must say so (running the import again
            // finds them and finishes).
            throw failed(error)
        }
        var report = report
        report.conflicts.sort()
        return report
    }
}
