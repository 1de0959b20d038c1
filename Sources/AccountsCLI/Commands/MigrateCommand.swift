import AccountBackendKit
import AccountCore
import AccountOperations
import AccountSettings
import ArgumentParser
import JSONSupport

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
            let descriptor = try context.backends.descriptor(named: toBackend)
            var target = context.settings.sections[toBackend] ?? BackendConfiguration(location: "")
            target.location =
                !descriptor.storesInFiles || toStore.hasPrefix("/") ? toStore : FileManagerPath.current + "/" + toStore
            target.createIfMissing = true
            guard toBackend != context.settings.backendName || target.location != context.settings.backend.location
            else {
                throw UsageProblem(
                    english: "The target is the source store itself.", korean: "대상이 원본 저장소와 같습니다.")
            }
            let targetConfiguration = target
            let summary = try await context.withAdministration(reading: true) { source in
                let target = try await context.backends.open(descriptor, targetConfiguration)
                // Only a target that was empty can be left holding a partial copy.
                let targetWasEmpty = (try? await target.userCount()) == 0
                do {
                    let progress = ProgressLine(
                        .migrated, total: try await source.userCount(), messages: context.messages,
                        json: options.base.json)
                    defer { progress.finish() }
                    let summary = try await source.migrate(to: target, progress: progress.update)
                    try await target.close()
                    return summary
                } catch let error as AccountError where targetWasEmpty {
                    try? await target.close()
                    // The target was new (or empty): say what the failure left in it.
                    var probe = targetConfiguration
                    probe.createIfMissing = false
                    var copied: Int?
                    if let reopened = try? await context.backends.open(descriptor, probe) {
                        copied = try? await reopened.userCount()
                        try? await reopened.close()
                    }
                    throw error.addingOutcome(
                        .migrationTargetHolds(location: targetConfiguration.location, users: copied))
                } catch {
                    try? await target.close()
                    throw error
                }
            }
            let line = context.messages.migrated(
                users: summary.users, sessions: summary.sessions, from: context.settings.backendName, to: toBackend,
                digest: summary.digest)
            return CommandReply(
                lines: [line],
                fields: [
                    ("users", .int(Int64(summary.users))), ("sessions", .int(Int64(summary.sessions))),
                    ("sha256", .string(summary.digest)), ("to_backend", .string(toBackend)),
                ])
        }
    }
}
