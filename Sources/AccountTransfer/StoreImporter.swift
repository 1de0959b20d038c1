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
    /// Reads the whole file and checks it.
    /// - Throws: `invalidExport` naming the first bad line.
    public static func validate(_ path: String) throws(AccountError) -> ValidatedExport {
        ValidatedExport(path: path, header: try ExportFileReader.validate(path: path))
    }

    /// Imports a validated file into `store`.
    /// - Parameter merge: allow a non-empty store; an email (or id) already there is reported
    ///   as a conflict and never overwritten.
    /// - Throws: `storeNotEmpty` without `merge` when the store holds users.
    public static func importFile(_ file: ValidatedExport, into store: any UserRepository, merge: Bool) async throws
        -> ImportReport
    {
        let path = file.path
        if !merge {
            let existing = try await store.userCount()
            guard existing == 0 else {
                throw AccountError.storeNotEmpty(detail: "it holds \(existing) users; use --merge to add to it")
            }
        }
        let reader = try ExportFileReader(path: path)
        var report = ImportReport()
        var skipping = false
        while let record = try reader.next() {
            switch record {
            case .user(let user):
                skipping = false
                if merge, try await store.user(id: user.id) != nil {
                    report.conflicts.append(user.email)
                    skipping = true
                    continue
                }
                do {
                    try await store.createUser(user, initialSession: nil)
                    report.imported += 1
                } catch AccountError.emailTaken where merge {
                    report.conflicts.append(user.email)
                    skipping = true
                }
            case .session(let session):
                guard !skipping else { continue }
                if try await store.createSession(session) { report.sessions += 1 }
            }
        }
        return report
    }
}
