import AccountBackendKit
import AccountCore
import AccountJSON
import AccountOperations
import AccountSettings
import ArgumentParser

/// Check the configured store: engine integrity, index consistency, orphaned and expired sessions.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check the configured store; --fix purges expired sessions, replaced refresh tokens and codes, --remove-orphaned-sessions sessions whose user is gone.",
        discussion: """
            Runs the backend's integrity check (its engine's own consistency checks and its \
            indexes against its records), and looks for expired sessions. Exits 1 when the store \
            is damaged; expired sessions alone are not damage.
            """)

    @Flag(help: "Delete expired sessions. Nothing else is ever changed.") var fix = false
    @Flag(
        name: .customLong("remove-orphaned-sessions"),
        help: "Delete sessions whose user is gone (only damage leaves them); reported before and after.")
    var removeOrphans = false
    @OptionGroup var options: StoreOptions

    /// How many unusable hashes the text lists by email; `--json` lists every one.
    static let listedUnusableHashes = 20

    func run() async throws {
        try await CommandContext.run(options) { context in
            // Only `--fix` and `--remove-orphaned-sessions` write: without them the check reads, and
            // leaves a store of an older format as it is.
            let (checkup, outbox, mailFailure) = try await context.withAdministration(
                reading: !fix && !removeOrphans
            ) { administration in
                let progress = ProgressLine(
                    .checked, total: try await administration.userCount(), messages: context.messages,
                    json: options.base.json)
                defer { progress.finish() }
                let checkup = try await administration.checkUp(
                    purgeExpired: fix, removeOrphanedSessions: removeOrphans, progress: progress.update)
                let repository = administration.repository
                // The relay's last answer to a mail that failed: what an operator needs to mend it.
                let failing = try await repository.dueMail(at: Timestamp(millisecondsSince1970: .max), limit: 100)
                    .first { $0.attempts > 0 }
                return (checkup, try await repository.outboxSummary(), failing?.lastError)
            }
            let text = context.messages
            var lines = [
                text.doctorStore(context.settings.backend.location, checkup.info),
                text.doctorIntegrity(damaged: checkup.isDamaged),
            ]
            lines += checkup.problems.map(text.doctorProblem)
            lines += checkup.brokenRecords.map { text.doctorBrokenRecord($0.email, $0.rule) }
            lines.append(text.doctorUsers(checkup.users))
            lines += checkup.legacySchemes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                text.doctorLegacyScheme($0.key, accounts: $0.value)
            }
            // A terminal shows the first few; `--json` carries them all.
            lines += checkup.unusableHashes.prefix(Self.listedUnusableHashes).map {
                text.doctorUnusableHash($0.email, $0.problem)
            }
            if checkup.unusableHashes.count > Self.listedUnusableHashes {
                lines.append(text.doctorMoreUnusableHashes(checkup.unusableHashes.count - Self.listedUnusableHashes))
            }
            lines.append(text.doctorExpired(checkup.expiredSessions, purged: fix ? checkup.purgedSessions : nil))
            if fix { lines.append(text.doctorPurgedFlowRecords(checkup.purgedFlowRecords)) }
            if removeOrphans { lines.append(text.doctorRemovedOrphans(checkup.removedOrphanedSessions)) }
            lines.append(text.doctorOutbox(outbox, lastFailure: mailFailure))
            return CommandReply(
                lines: lines,
                fields: [
                    ("backend", .string(context.settings.backend.name)), ("integrity_ok", .bool(!checkup.isDamaged)),
                    ("problems", .array(checkup.problems.map(JSONValue.string))),
                    (
                        "broken_records",
                        .array(
                            checkup.brokenRecords.map {
                                .object([
                                    ("email", .string($0.email)), ("code", .string($0.rule.code)),
                                    ("message", .string($0.rule.message(context.language))),
                                ])
                            })
                    ),
                    ("users", .int(Int64(checkup.users))),
                    (
                        "legacy_password_schemes",
                        .object(
                            checkup.legacySchemes.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })
                    ),
                    (
                        "unusable_hashes",
                        .array(
                            checkup.unusableHashes.map {
                                .object([("email", .string($0.email)), ("reason", .string($0.problem.reason))])
                            })
                    ),
                    ("expired_sessions", .int(Int64(checkup.expiredSessions))),
                    ("purged_sessions", .int(Int64(checkup.purgedSessions))),
                    ("removed_orphaned_sessions", .int(Int64(checkup.removedOrphanedSessions))),
                    ("purged_flow_records", .int(Int64(checkup.purgedFlowRecords))),
                    (
                        "outbox",
                        .object([
                            ("queued", .int(Int64(outbox.queued))), ("failing", .int(Int64(outbox.failing))),
                            ("last_failure", mailFailure.map(JSONValue.string) ?? .null),
                        ])
                    ),
                ],
                exitStatus: checkup.isDamaged ? ExitStatus.checksFailed : ExitStatus.success,
                jsonError: checkup.isDamaged
                    ? (
                        "store_damaged",
                        (checkup.problems + checkup.brokenRecords.map { text.doctorBrokenRecord($0.email, $0.rule) })
                            .joined(separator: "; ")
                    ) : nil)
        }
    }
}
