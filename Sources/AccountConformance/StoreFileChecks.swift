import AccountCore

/// Files that are not this backend's readable store: refused with a typed error, never changed.
enum StoreFileChecks {
    /// Files another backend (or another program) would leave at the store path.
    static let foreignFiles: [(kind: String, label: String, bytes: [UInt8])] = [
        (
            "sqlite", "a SQLite database",
            Array("SQLite format 3\0".utf8) + [0x10, 0x00, 0x01, 0x01] + Array(repeating: 0, count: 4076)
        ),
        (
            "lmdb", "an LMDB environment",
            Array(repeating: 0, count: 16) + [0xDE, 0xC0, 0xEF, 0xBE] + Array(repeating: 0, count: 4076)
        ),
        (
            "json", "an AccountStore JSON store",
            Array(
                #"{"format":"accountstore-json","format_version":1,"store_id":"x","created_at_ms":0,"users":[],"sessions":[]}"#
                    .utf8)
        ),
        ("other-json", "a JSON document of another program", Array(#"{"name":"not a store","items":[1,2,3]}"#.utf8)),
    ]

    static let all: [ConformanceCheck] = [
        ConformanceCheck("another backend's store is refused with store_kind_mismatch and left untouched") { context in
            var tried = 0
            for foreign in foreignFiles where foreign.kind != context.subject.backendName {
                let path = context.path("foreign-\(foreign.kind)")
                try context.write(foreign.bytes, to: path)
                let before = context.snapshotOfFolder()
                try await context.expectError("store_kind_mismatch", "opening \(foreign.label)") {
                    let store = try await context.open(path)
                    _ = try await store.userCount()
                    try await store.close()
                }
                try context.expect(context.snapshotOfFolder() == before, "opening \(foreign.label) changed the folder")
                tried += 1
            }
            try context.expect(tried >= 3, "only \(tried) foreign kinds were tried")
        },
        ConformanceCheck("a newer format version is refused with store_version_unsupported and left untouched") {
            context in
            let path = context.storePath
            try context.subject.plantStore(path, context.subject.currentFormatVersion + 1)
            let before = context.snapshotOfFolder()
            try await context.expectError("store_version_unsupported", "opening a store of a newer format") {
                let store = try await context.open(path)
                _ = try await store.userCount()
                try await store.close()
            }
            try context.expect(context.snapshotOfFolder() == before, "opening a newer store changed the folder")
        },
        ConformanceCheck("random bytes at the store path are refused and left untouched") { context in
            var generator = SplitMix64(seed: 0x5EED)
            let garbage = (0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            try context.write(garbage, to: context.storePath)
            let before = context.snapshotOfFolder()
            do {
                let store = try await context.open()
                _ = try await store.userCount()
                try await store.close()
                throw ConformanceFailure("random bytes opened as a store")
            } catch let error as AccountError {
                try context.expect(
                    ["store_corrupted", "store_kind_mismatch"].contains(error.code),
                    "random bytes gave \(error.code), expected store_corrupted or store_kind_mismatch")
            }
            try context.expect(context.snapshotOfFolder() == before, "opening random bytes changed the folder")
        },
    ]
}
