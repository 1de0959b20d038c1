public import AccountCore
import AccountCrypto
import Foundation

/// How an import of another system's accounts treats them.
public struct ForeignImportOptions: Sendable {
    /// The most a hash made elsewhere may cost to check; one over them is refused.
    public var limits: LegacyCostLimits
    /// Whether an account the source keeps from signing in (blocked, disabled, banned, deleted,
    /// locked) is brought in blocked, rather than refused.
    public var keepBlocked: Bool
    /// When the import runs.
    public var now: Timestamp
    /// An email whose record's password hash the check keeps, for `--check-login` to verify a
    /// known password against before anything is written.
    public var checkLogin: String?

    /// Options; by default accounts blocked at the source are refused.
    public init(
        limits: LegacyCostLimits = LegacyCostLimits(), keepBlocked: Bool = false, now: Timestamp,
        checkLogin: String? = nil
    ) {
        self.limits = limits
        self.keepBlocked = keepBlocked
        self.now = now
        self.checkLogin = checkLogin
    }
}

/// What an import of another system's accounts would store, and what it refuses: the first
/// read of the file, which writes nothing.
public struct ImportCheck: Sendable {
    /// The accounts the file holds.
    public var accounts = 0
    /// How many of them would be stored.
    public var wouldImport = 0
    /// The records refused, with why.
    public var refused: [RefusedRecord] = []
    /// How many of the stored users are on each password scheme, by the scheme's name.
    public var schemes: [String: Int] = [:]
    /// How many would be stored blocked (`keepBlocked`), with a temporary password, with a
    /// proven email.
    public var blocked = 0
    public var temporaryPasswords = 0
    public var provenEmails = 0
    /// The highest number the file's users keep (their source ids).
    public var highestNumber: Int?
    /// The file's SHA-256: which file this is, to resume its import and to notice a change.
    public var fingerprint = ""
    /// The stored form of the hash of the record with `checkLogin`'s email, when asked and
    /// found (only ever verified, never shown).
    public var checkLoginHash: String?
    /// The places (1-based) of the refused records.
    var refusedAt: Set<Int> = []
}

/// Maps accounts read from another system onto this store's records and holds each to the
/// rules every stored record meets, then writes them in batches. The file is read twice, a
/// record at a time, in the memory of a batch: once to check every record (``check(_:path:options:progress:)``,
/// which writes nothing), once to store them (``store(_:from:path:options:into:merge:idMap:progress:)``).
///
/// The mapping, declared here once:
/// - the email is the source's in lowercase (the key every other system folds too), a Unicode
///   domain in its ASCII form; it must be a well-formed stored email (`StoredEmail`), and one
///   stored record per email;
/// - the nickname is the first of the source's names that is not blank, else the part of the
///   email before `@`, trimmed and NFC-normalized; it must then meet the nickname rule;
/// - the password hash is kept as the source's scheme wrote it (a scheme here must verify it,
///   the whole string parsed, at a cost within the import's `LegacyCostLimits`), and becomes
///   Argon2id at the user's first login;
/// - the creation time is the source's, or the time of the import when the source keeps none;
/// - the account's state is the source's: blocked there, it is refused, or kept blocked with
///   `keepBlocked`; a temporary password stays temporary; a proven email stays proven;
/// - the id is new; the number is the source's integer id where it has one (Strapi, Django,
///   Devise) and the store has not given it, else the store's next.
public enum ForeignImporter {
    /// Users written per transaction.
    static let batchSize = 1_000

    /// Reads the whole file and checks every record; writes nothing.
    /// - Throws: `invalidExport` for a file that is not `source`'s export as a whole, or that
    ///   holds no accounts.
    public static func check(
        _ source: any ForeignSource, path: String, options: ForeignImportOptions,
        progress: (_ accountsRead: Int) -> Void = { _ in }
    ) throws(AccountError) -> ImportCheck {
        var check = ImportCheck()
        check.fingerprint = try fingerprint(path, source: source)
        let reader = try source.open(path, now: options.now)
        let hasher = PasswordSchemes.standard(current: Argon2idPasswordHasher.recommended, limits: options.limits)
        var seen: [String: String] = [:]
        let random = SodiumRandomSource()
        while let account = try reader.next() {
            check.accounts += 1
            let (user, reasons) = map(account, options: options, hasher: hasher, random: random)
            if let wanted = options.checkLogin.flatMap({ try? StoredEmail($0).normalized }), wanted == user.email,
                check.checkLoginHash == nil, !user.passwordHash.isEmpty
            {
                check.checkLoginHash = user.passwordHash
            }
            var problems = reasons
            if let first = seen[user.email] { problems.append(.duplicateEmail(of: first)) }
            if !problems.isEmpty {
                check.refused.append(
                    RefusedRecord(source: account.source, sourceID: account.sourceID, user: user, reasons: problems))
                check.refusedAt.insert(check.accounts)
            } else {
                // Only a record that is stored claims its email: one refused for another reason
                // leaves it to the next record that has it.
                seen[user.email] = account.source
                check.wouldImport += 1
                check.schemes[PasswordSchemes.name(of: user.passwordHash), default: 0] += 1
                if user.isBlocked { check.blocked += 1 }
                if user.mustChangePassword { check.temporaryPasswords += 1 }
                if user.emailVerifiedAt != nil { check.provenEmails += 1 }
                if let number = user.number { check.highestNumber = max(check.highestNumber ?? 0, number) }
            }
            progress(check.accounts)
        }
        guard check.accounts > 0 else {
            throw SourceProblem.invalid(path, type(of: source).name, "it holds no users", "사용자가 하나도 없습니다")
        }
        return check
    }

    /// One account as it would be stored, and what it breaks (empty when it may be stored).
    static func map(
        _ account: ForeignAccount, options: ForeignImportOptions, hasher: SchemedPasswordHasher,
        random: some RandomSource
    ) -> (UserRecord, [RecordProblem]) {
        // The stored form of the address (lowercase, a Unicode domain in ASCII), or the source's
        // in lowercase when it is no address, for the rules to name what is wrong.
        let email = (try? StoredEmail(account.email))?.normalized ?? account.email.lowercased()
        let name = account.names.lazy.compactMap { $0 }.first {
            !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        let nickname = Nickname.normalize(name ?? String(email.prefix { $0 != "@" }))
        var reasons: [RecordProblem] = account.problems
        var hash = ""
        switch account.password {
        case .hash(let stored) where stored.isEmpty || stored == UserRecord.noPassword:
            reasons.append(.noPassword("its password is empty"))
        case .hash(let stored):
            hash = stored
            if PasswordSchemes.name(of: stored) == "unknown" {
                reasons.append(.unverifiableHash(stored))
            } else if let problem = hasher.problem(stored) {
                reasons.append(.unusableHash(problem))
            }
        case .none(let problem):
            reasons.append(problem)
        }
        if let why = account.blockedBecause, !options.keepBlocked { reasons.append(.blockedInSource(why)) }
        let user = UserRecord(
            id: .random(using: random), email: email, nickname: nickname, passwordHash: hash,
            createdAt: account.createdAt ?? options.now, number: account.number.flatMap { $0 > 0 ? $0 : nil },
            isBlocked: account.blockedBecause != nil, mustChangePassword: account.temporaryPassword,
            emailVerifiedAt: account.emailVerifiedAt)
        return (user, RecordRules.broken(by: user) + reasons)
    }

    /// Stores the users `check` accepted, reading the file again, in batches of `batchSize`.
    /// Without `merge` the store must be empty, with it an email already there is a conflict,
    /// left as it was; either way an import of this file that did not finish is resumed: the
    /// users it stored are recognised (``ImportReport/alreadyImported``) and every number it
    /// reserved is kept. `idMap` gets each stored (or already stored) user under its source id.
    /// - Throws: `invalidExport` (nothing written) when the file changed since it was checked.
    public static func store(
        _ check: ImportCheck, from source: any ForeignSource, path: String, options: ForeignImportOptions,
        into store: any UserRepository, merge: Bool, idMap: ((IDMapEntry) throws -> Void)? = nil,
        progress: (_ usersDone: Int) -> Void = { _ in }
    ) async throws -> ImportReport {
        guard try fingerprint(path, source: source) == check.fingerprint else {
            throw SourceProblem.changed(path, type(of: source).name)
        }
        var run = try await ImportRun.begin(
            store, fingerprint: check.fingerprint, highestNumber: check.highestNumber, merge: merge)
        let reader = try source.open(path, now: options.now)
        let hasher = PasswordSchemes.standard(current: Argon2idPasswordHasher.recommended, limits: options.limits)
        let random = SodiumRandomSource()
        var index = 0
        var batch: [(user: UserRecord, sourceID: String?)] = []
        do {
            while let account = try reader.next() {
                index += 1
                guard !check.refusedAt.contains(index) else { continue }
                let (user, reasons) = map(account, options: options, hasher: hasher, random: random)
                guard reasons.isEmpty else { throw SourceProblem.changed(path, type(of: source).name) }
                batch.append((user, account.sourceID))
                if batch.count == batchSize {
                    try await run.write(batch, idMap: idMap)
                    batch.removeAll(keepingCapacity: true)
                    progress(run.report.imported + run.report.alreadyImported + run.report.conflicts.count)
                }
            }
            try await run.write(batch, idMap: idMap)
            progress(run.report.imported + run.report.alreadyImported + run.report.conflicts.count)
        } catch let error as AccountError {
            throw run.failed(error)
        }
        return try await run.finish(keepingNumbersOf: check.refused)
    }

    /// The file's SHA-256, or `invalidExport` when it cannot be read.
    private static func fingerprint(_ path: String, source: any ForeignSource) throws(AccountError) -> String {
        let system = type(of: source).name
        return try FileFingerprint.of(path) { SourceProblem.invalid(path, system, $0, $0) }
    }
}

/// One line of `--id-map`: a user of the source under its source id, with the id and number
/// it has here.
public struct IDMapEntry: Sendable {
    /// The source system's id of the account (nil when the source has none).
    public let sourceID: String?
    /// The stored email.
    public let email: String
    /// The id here.
    public let id: UserID
    /// The number here.
    public let number: Int
    /// Whether an earlier, interrupted run of the import had stored it.
    public let alreadyImported: Bool
}
