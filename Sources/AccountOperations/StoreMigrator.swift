public import AccountCore

/// Copies every user, session and provider identity from one store into an empty one, numbers
/// and the highest number ever given included, then proves the copy: equal counts, equal
/// digests of the sorted records on both sides, and the same highest number. Flows in progress
/// (one-time codes, replaced refresh tokens, queued mail) stay in the source.
public enum StoreMigrator {
    /// Migrates `source` into `target`.
    /// - Throws: `storeNotEmpty` when the target holds users; `storeIO` when verification fails.
    public static func migrate(
        from source: any UserRepository, to target: any UserRepository, progress: (_ usersDone: Int) -> Void = { _ in }
    ) async throws -> TransferSummary {
        let existing = try await target.userCount()
        guard existing == 0 else {
            throw AccountError.storeNotEmpty(
                detail:
                    "it holds \(EnglishPlural.count(existing, "user")); nothing was written; migrate only into a new store"
            )
        }
        var done = 0
        for try await page in source.userPages(size: AccountAdministration.pageSize) {
            var sessions: [SessionRecord] = []
            for user in page { sessions += try await source.sessions(userID: user.id) }
            // A page lands whole in the target, users with their sessions, or not at all.
            let skipped: [String]
            do {
                skipped = try await target.createUsers(page, sessions: sessions)
            } catch let error as AccountError {
                // A user that appeared in the target meanwhile may hold a number of this page:
                // the page is refused whole, and the error says what happened, not the clash.
                let present = try await target.userCount()
                guard present > done else { throw error }
                throw AccountError.storeNotEmpty(
                    detail:
                        "\(EnglishPlural.count(present - done, "user")) appeared in the target during the migration, which had copied \(EnglishPlural.count(done, "user")) into it by then (this page of \(page.count) was not written)"
                )
            }
            guard skipped.isEmpty else {
                // The page's other users were stored, and the pages before it: say so, since
                // the message must not read as though nothing was written.
                let copied = done + page.count - skipped.count
                throw AccountError.storeNotEmpty(
                    detail:
                        "\(EnglishPlural.count(skipped.count, "user")) appeared in the target during the migration, which had copied \(EnglishPlural.count(copied, "user")) into it by then"
                )
            }
            for user in page {
                for identity in try await source.identities(userID: user.id) {
                    guard try await target.linkIdentity(identity) else {
                        throw AccountError.storeIO(
                            detail: "the target lost user \(user.id) while its identities were copied")
                    }
                }
            }
            done += page.count
            progress(done)
        }
        // The source's highest number may be a withdrawn user's: the target must not give it.
        let sourceLast = try await source.lastUserNumber()
        try await target.raiseLastUserNumber(to: sourceLast)
        let targetLast = try await target.lastUserNumber()
        guard targetLast == sourceLast else {
            throw AccountError.storeIO(
                detail:
                    "verification failed: the source's highest user number is \(sourceLast), the target's \(targetLast); did the source change during the migration?"
            )
        }
        let from = try await StoreExporter.digest(source)
        let to = try await StoreExporter.digest(target)
        guard from == to else {
            throw AccountError.storeIO(
                detail:
                    "verification failed: source \(from.users) users/\(from.sessions) sessions (\(from.digest.prefix(12))), target \(to.users)/\(to.sessions) (\(to.digest.prefix(12))); did the source change during the migration?"
            )
        }
        var copy = to
        copy.mailLeftQueued = try await source.outboxSummary().queued
        return copy
    }
}
