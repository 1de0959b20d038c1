import AccountCore
import ArgumentParser
import StoreSupport

/// Check the configured store: engine integrity, index consistency, orphaned and expired sessions.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check the configured store; --fix purges expired sessions, --remove-orphaned-sessions those whose user is gone.",
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

    func run() async throws {
        try await CommandContext.run(options) { context in
            return try await context.withStore { store in
                let removedOrphans = removeOrphans ? try await store.deleteOrphanedSessions() : 0
                let integrity = try await store.integrityCheck()
                let now = SystemClock().now()
                var users = 0
                var expired: [String] = []
                var after: String?
                let progress = ProgressLine(
                    "checked users", total: try await store.userCount(), json: options.base.json)
                defer { progress.finish() }
                while true {
                    let page = try await store.users(after: after, limit: 500)
                    for user in page {
                        users += 1
                        expired += try await store.sessions(userID: user.id).filter { $0.isExpired(at: now) }.map(
                            \.tokenHash)
                    }
                    progress.update(users)
                    guard page.count == 500, let last = page.last else { break }
                    after = last.email
                }
                var purged = 0
                if fix {
                    for tokenHash in expired where try await store.deleteSession(tokenHash: tokenHash) { purged += 1 }
                }
                let damaged = integrity != ["ok"]
                let info = try await store.storeInfo()
                let text = context.messages
                var lines = [
                    text.doctorStore(context.settings.backend.location, info),
                    text.doctorIntegrity(damaged: damaged),
                ]
                lines += integrity.filter { $0 != "ok" }.map(text.doctorProblem)
                lines.append(text.doctorUsers(users))
                lines.append(text.doctorExpired(expired.count, purged: fix ? purged : nil))
                if removeOrphans { lines.append(text.doctorRemovedOrphans(removedOrphans)) }
                return CommandReply(
                    lines: lines,
                    fields: [
                        ("backend", .string(context.settings.backendName)), ("integrity_ok", .bool(!damaged)),
                        ("problems", .array(integrity.filter { $0 != "ok" }.map(JSONValue.string))),
                        ("users", .int(Int64(users))), ("expired_sessions", .int(Int64(expired.count))),
                        ("purged_sessions", .int(Int64(purged))),
                        ("removed_orphaned_sessions", .int(Int64(removedOrphans))),
                    ],
                    exitStatus: damaged ? ExitStatus.checksFailed : ExitStatus.success,
                    jsonError: damaged ? ("store_damaged", integrity.joined(separator: "; ")) : nil)
            }
        }
    }
}
