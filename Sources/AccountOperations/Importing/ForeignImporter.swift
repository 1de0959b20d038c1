public import AccountCore
import AccountCrypto
import Foundation

/// What an import of another system's accounts would store, and what it refuses.
public struct ImportPlan: Sendable {
    /// The records to store, in the source's order.
    public var users: [UserRecord] = []
    /// The records refused, with why.
    public var refused: [RefusedRecord] = []
    /// How many of `users` are on each password scheme, by the scheme's name.
    public var schemes: [String: Int] = [:]
}

/// Maps accounts read from another system onto this store's records and holds each to the
/// rules every stored record meets, then writes them in batches.
///
/// The mapping, declared here once:
/// - the email is the source's in lowercase (the key every other system folds too), a Unicode
///   domain in its ASCII form; it must be a well-formed stored email (`StoredEmail`), and one
///   stored record per email;
/// - the nickname is the first of the source's names that is not blank, else the part of the
///   email before `@`, trimmed and NFC-normalized; it must then meet the nickname rule;
/// - the password hash is kept as the source's scheme wrote it (a scheme here must verify it,
///   the whole string parsed, at a cost within the import's ``LegacyCostLimits``), and becomes
///   Argon2id at the user's first login;
/// - the creation time is the source's, or the time of the import when the source keeps none;
/// - the id is new; the number is the source's integer id where it has one (Strapi, Django)
///   and the store has not given it, else the store's next.
public enum ForeignImporter {
    /// Maps and checks every account; a hash that is not whole, or whose check would cost more
    /// than `limits` allow, is refused.
    public static func plan(
        _ accounts: [ForeignAccount], now: Timestamp, random: some RandomSource,
        limits: LegacyCostLimits = LegacyCostLimits()
    ) -> ImportPlan {
        let hasher = PasswordSchemes.standard(current: Argon2idPasswordHasher.recommended, limits: limits)
        var plan = ImportPlan()
        var seen: [String: String] = [:]
        for account in accounts {
            // The stored form of the address (lowercase, a Unicode domain in ASCII), or the
            // source's in lowercase when it is no address, for the rules to name what is wrong.
            let email = (try? StoredEmail(account.email))?.normalized ?? account.email.lowercased()
            let name = account.names.lazy.compactMap { $0 }.first {
                !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            }
            let nickname = Nickname.normalize(name ?? String(email.prefix { $0 != "@" }))
            var reasons: [RecordProblem] = []
            var hash = ""
            switch account.password {
            case .hash(let stored) where stored.isEmpty:
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
            let user = UserRecord(
                id: .random(using: random), email: email, nickname: nickname, passwordHash: hash,
                createdAt: account.createdAt ?? now, number: account.number.flatMap { $0 > 0 ? $0 : nil })
            reasons = RecordRules.broken(by: user) + reasons
            // Only a record that is stored claims its email: one refused for another reason
            // leaves it to the next record that has it.
            if let first = seen[email] { reasons.append(.duplicateEmail(of: first)) }
            guard reasons.isEmpty else {
                plan.refused.append(RefusedRecord(source: account.source, user: user, reasons: reasons))
                continue
            }
            seen[email] = account.source
            plan.users.append(user)
            plan.schemes[PasswordSchemes.name(of: hash), default: 0] += 1
        }
        return plan
    }

    /// Stores `plan.users` in batches of `StoreImporter.batchSize`; without `merge` the store
    /// must be empty, with it an email already there is a conflict, left as it was.
    public static func store(
        _ plan: ImportPlan, into store: any UserRepository, merge: Bool,
        progress: (_ usersDone: Int) -> Void = { _ in }
    ) async throws -> ImportReport {
        if !merge { try await StoreImporter.requireEmpty(store) }
        var report = ImportReport()
        let taken = try await StoreImporter.takenNumbers(in: store)
        try await StoreImporter.reserveNumbers(
            upTo: plan.users.compactMap(\.number).max(), in: store, taken: taken)
        var start = 0
        var inFlight = 0
        do {
            while start < plan.users.count {
                let given = Array(plan.users[start..<min(start + StoreImporter.batchSize, plan.users.count)])
                let batch = StoreImporter.keepingFreeNumbers(given, taken: taken)
                inFlight = batch.count
                let skipped = Set(try await store.createUsers(batch, sessions: []))
                report.renumbered +=
                    batch.indices.filter {
                        batch[$0].number != given[$0].number && !skipped.contains(given[$0].email)
                    }.count
                report.conflicts += batch.map(\.email).filter(skipped.contains)
                report.imported += batch.count - skipped.count
                start += batch.count
                progress(start)
            }
        } catch let error as AccountError {
            guard report.imported > 0 else { throw error }
            throw error.addingOutcome(
                .importedBeforeFailure(users: report.imported, sessions: 0, batchInFlight: inFlight))
        }
        report.conflicts.sort()
        return report
    }
}
