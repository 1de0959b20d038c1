import AccountBackendKit
import AccountCore
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// Stores that are not this backend's readable store: refused with a typed error, never changed.
/// A store reached through a symbolic link: kept where the link points.
enum StoreFileChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck(
            "another backend's store is refused with store_kind_mismatch and left untouched",
            requires: .selfDescribingStores
        ) { context in
            var tried = 0
            for foreign in try await context.subject.storeFixtures.plantForeign(context.directory) {
                let path = foreign.path
                let before = try await context.snapshot()
                try await context.expectError("store_kind_mismatch", "opening \(foreign.label)") {
                    let store = try await context.open(path)
                    _ = try await store.userCount()
                    try await store.close()
                }
                try context.expect(
                    try await context.snapshot() == before, "opening \(foreign.label) changed the folder")
                tried += 1
            }
            // Every other registered backend's kind; none at all would make the check empty.
            try context.expect(tried >= 1, "no foreign kind was planted (the registry has no other backend)")
        },
        ConformanceCheck(
            "a newer format version is refused with store_version_unsupported and left untouched",
            requires: .selfDescribingStores
        ) {
            context in
            let path = context.storePath
            try await context.subject.plantStore(path, context.subject.currentFormatVersion + 1)
            let before = try await context.snapshot()
            try await context.expectError("store_version_unsupported", "opening a store of a newer format") {
                let store = try await context.open(path)
                _ = try await store.userCount()
                try await store.close()
            }
            try context.expect(try await context.snapshot() == before, "opening a newer store changed the folder")
        },
        ConformanceCheck(
            "a damaged store (random bytes, a broken stamp) is refused and left untouched",
            requires: .selfDescribingStores
        ) { context in
            try await context.subject.storeFixtures.plantDamaged(context.storePath)
            let before = try await context.snapshot()
            do {
                let store = try await context.open()
                _ = try await store.userCount()
                try await store.close()
                throw ConformanceFailure("a damaged store opened")
            } catch let error as AccountError {
                try context.expect(
                    ["store_corrupted", "store_kind_mismatch"].contains(error.code),
                    "a damaged store gave \(error.code), expected store_corrupted or store_kind_mismatch")
            }
            try context.expect(try await context.snapshot() == before, "opening a damaged store changed it")
        },
        ConformanceCheck(
            "a store reached through a symbolic link is created and changed where the link points",
            requires: .survivesReopen, needsStoreFiles: true
        ) { context in
            // A store kept on another volume: the link dangles until the first open creates
            // the file it names, and every later write (a rename, for a backend that replaces
            // its file) must land there too, or the store forks in two.
            let files = FileManager.default
            let volume = context.path("volume")
            try files.createDirectory(atPath: volume, withIntermediateDirectories: false)
            let target = "volume/" + context.subject.storeFileName
            try files.createSymbolicLink(atPath: context.storePath, withDestinationPath: target)
            for n in 1...2 {
                let store = try await context.open()
                try await store.createUser(Fixtures.user(n), initialSession: nil)
                try await store.close()
            }
            let link = try? files.destinationOfSymbolicLink(atPath: context.storePath)
            try context.expect(link == target, "the link was replaced (it now names \(link ?? "nothing"))")
            let beside = try files.contentsOfDirectory(atPath: context.directory).sorted()
            try context.expect(
                beside == ["volume", context.subject.storeFileName].sorted(),
                "files were made beside the link instead of beside the store: \(beside)")
            let store = try await context.open(context.path(target), createIfMissing: false)
            let count = try await store.userCount()
            try await store.close()
            try context.expect(count == 2, "the store the link names holds \(count) users, not the 2 written")
        },
    ]
}
