import AccountCore
import SQLiteBackend

extension BackendDescriptor {
    /// The SQLite backend: the embedded default.
    public static let sqlite = BackendDescriptor(
        name: "sqlite",
        summary: "one SQLite database in WAL mode (system libsqlite3); the embedded default, safe for many processes",
        storeLocation: .file(defaultName: "accounts.sqlite"),
        options: [
            BackendOption(
                name: "synchronous", kind: .choice(SQLiteOptions.Synchronous.allCases.map(\.rawValue)),
                defaultValue: .word("full"),
                summary:
                    "full: fsync every commit (durable); normal: fsync at checkpoints (a power cut may lose the last commits)"
            ),
            BackendOption(
                name: "busy_timeout_ms", kind: .integer(0...600_000), defaultValue: .integer(5_000),
                summary: "how long a write waits for another process's lock before store_busy"),
        ],
        formatVersion: SQLiteRepository.formatVersion,
        open: { configuration in
            try await SQLiteRepository.open(
                SQLiteOptions(
                    path: configuration.storePath,
                    synchronous: SQLiteOptions.Synchronous(rawValue: configuration.word("synchronous", default: "full"))
                        ?? .full,
                    busyTimeoutMilliseconds: configuration.integer("busy_timeout_ms", default: 5_000)))
        },
        plantStore: { configuration, version in
            try SQLiteRepository.writeEmptyStore(at: configuration.storePath, formatVersion: version)
        },
        integrityCheck: { repository in
            guard let store = repository as? SQLiteRepository else { return ["not a SQLiteRepository"] }
            return try await store.integrityCheck()
        }
    )
}
