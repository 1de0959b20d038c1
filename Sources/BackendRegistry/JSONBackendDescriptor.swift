import AccountCore
import JSONFileBackend

extension BackendDescriptor {
    /// The JSON-file backend.
    public static let json = BackendDescriptor(
        name: "json",
        summary:
            "one pretty-printed JSON file, rewritten atomically on every change; small stores, easy to read and diff",
        storeLocation: .file(defaultName: "accounts.json"),
        options: [
            BackendOption(
                name: "lock_timeout_ms", kind: .integer(0...600_000), defaultValue: .integer(5_000),
                summary: "how long a write waits for another process's write before store_busy")
        ],
        formatVersion: JSONFileRepository.formatVersion,
        open: { configuration in
            try await JSONFileRepository.open(
                JSONFileOptions(
                    path: configuration.storePath,
                    lockTimeoutMilliseconds: configuration.integer("lock_timeout_ms", default: 5_000)))
        },
        plantStore: { configuration, version in
            try JSONFileRepository.writeEmptyStore(at: configuration.storePath, formatVersion: version)
        },
        integrityCheck: { repository in
            guard let store = repository as? JSONFileRepository else { return ["not a JSONFileRepository"] }
            return try await store.integrityCheck()
        }
    )
}
