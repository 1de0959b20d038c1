import AccountCore
import AccountJSON
import ArgumentParser

/// Bring a store of an older format to this build's, in place.
struct UpgradeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade", abstract: "Bring the store to this build's format, in place.",
        discussion: """
            Every command that writes upgrades an older store when it opens it; commands that only \
            read (users, export, doctor without --fix) refuse it with store_upgrade_needed and \
            change nothing. This command upgrades and does nothing else. The upgrade is one \
            transaction: a crash leaves the old store or the new one. A store already at this \
            build's format is left as it is.
            """)

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            // The format before: an open that only reads names an older one without changing it.
            let found: Int
            do {
                found = try await context.withStore(reading: true) { try await $0.storeInfo().formatVersion }
            } catch AccountError.storeUpgradeNeeded(let version, _) {
                found = version
            }
            let now = try await context.withStore { try await $0.storeInfo().formatVersion }
            return CommandReply(
                lines: [context.messages.upgraded(from: found, to: now)],
                fields: [
                    ("from_format", .int(Int64(found))), ("format", .int(Int64(now))),
                    ("upgraded", .bool(found != now)),
                ])
        }
    }
}
