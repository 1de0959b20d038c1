import AccountBackendKit
import AccountCore
import AccountJSON
import AccountOperations
import AccountSettings
import ArgumentParser

/// Copy the configured store into a new store of another (or the same) backend, verified.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Copy every account and session into a new store, then verify the copy.",
        discussion: "The target must be new or empty. Afterwards counts and a digest of the sorted records match.")

    @Option(name: .customLong("to-backend"), help: "The target backend.", completion: .registeredBackends)
    var toBackend: String
    @Option(
        name: .customLong("to-store"),
        help:
            "The target store: a path, or for a backend whose stores live on a server the store's name there (the connection comes from that backend's section).",
        completion: .file()
    ) var toStore: String
    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            guard let section = context.settings.sections[toBackend] else {
                throw AccountError.unknownBackend(name: toBackend, known: context.backends.names)
            }
            let target = section.atLocation(
                !section.descriptor.storesInFiles || toStore.hasPrefix("/")
                    ? toStore : FileManagerPath.current + "/" + toStore)
            let source = context.settings.backend
            guard target.name != source.name || target.location != source.location else {
                throw UsageProblem(
                    english: "The target is the source store itself.", korean: "대상이 원본 저장소와 같습니다.")
            }
            let summary = try await context.withAdministration(reading: true) { administration in
                let store = try await target.open(creating: true)
                // Only a target that was empty can be left holding a partial copy.
                let targetWasEmpty = (try? await store.userCount()) == 0
                do {
                    let progress = ProgressLine(
                        .migrated, total: try await administration.userCount(), messages: context.messages,
                        json: options.base.json)
                    defer { progress.finish() }
                    let summary = try await administration.migrate(to: store, progress: progress.update)
                    try await store.close()
                    return summary
                } catch let error as AccountError where targetWasEmpty {
                    try? await store.close()
                    // The target was new (or empty): say what the failure left in it.
                    var copied: Int?
                    if let reopened = try? await target.open() {
                        copied = try? await reopened.userCount()
                        try? await reopened.close()
                    }
                    throw error.addingOutcome(
                        .migrationTargetHolds(location: target.location, users: copied))
                } catch {
                    try? await store.close()
                    throw error
                }
            }
            let line = context.messages.migrated(
                users: summary.users, sessions: summary.sessions, from: source.name, to: toBackend,
                digest: summary.digest)
            return CommandReply(
                lines: [line]
                    + (summary.mailLeftQueued > 0 ? [context.messages.mailLeftQueued(summary.mailLeftQueued)] : []),
                fields: [
                    ("users", .int(Int64(summary.users))), ("sessions", .int(Int64(summary.sessions))),
                    ("sha256", .string(summary.digest)), ("to_backend", .string(toBackend)),
                    ("mail_left_queued", .int(Int64(summary.mailLeftQueued))),
                ])
        }
    }
}
