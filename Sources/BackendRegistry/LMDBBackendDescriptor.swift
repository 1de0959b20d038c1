import AccountCore
import LMDBBackend

extension BackendDescriptor {
    /// The LMDB backend.
    public static let lmdb = BackendDescriptor(
        name: "lmdb",
        summary: "an LMDB environment (system liblmdb): memory-mapped, fastest reads, one writer at a time",
        storeLocation: .file(defaultName: "accounts.lmdb"),
        options: [
            BackendOption(
                name: "sync", kind: .choice(LMDBOptions.Sync.allCases.map(\.rawValue)), defaultValue: .word("full"),
                summary:
                    "full: flush every commit; nometasync: a power cut may lose the last commit; none: a power cut may lose recent commits"
            ),
            BackendOption(
                name: "map_size_mib", kind: .integer(1...1_048_576), defaultValue: .integer(64),
                summary: "the initial map size in MiB; it doubles automatically when a write fills it"),
        ],
        formatVersion: LMDBRepository.formatVersion,
        open: { configuration in
            try await LMDBRepository.open(
                LMDBOptions(
                    path: configuration.storePath,
                    sync: LMDBOptions.Sync(rawValue: configuration.word("sync", default: "full")) ?? .full,
                    mapSizeMiB: configuration.integer("map_size_mib", default: 64)))
        },
        plantStore: { configuration, version in
            try LMDBRepository.writeEmptyStore(at: configuration.storePath, formatVersion: version)
        },
        integrityCheck: { repository in
            guard let store = repository as? LMDBRepository else { return ["not a LMDBRepository"] }
            return try await store.integrityCheck()
        }
    )
}
