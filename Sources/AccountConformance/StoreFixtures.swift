import AccountCore
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// How a backend's stores are planted, damaged, looked at and removed for the checks of
/// `StoreFileChecks`. File backends use `files(backendName:)`; a server backend maps each scratch
/// path to a location of its own (a schema) and supplies its own versions.
public struct StoreFixtures: Sendable {
    /// Plants, inside the scratch folder, one store of every other kind; returns each one's
    /// description and the path to open it at.
    public let plantForeign: @Sendable (_ directory: String) async throws -> [(label: String, path: String)]
    /// Puts something at `path` that is not a readable store (random bytes, broken stamp).
    public let plantDamaged: @Sendable (_ path: String) async throws -> Void
    /// Everything the scratch folder's stores hold, to prove an operation changed nothing.
    public let snapshot: @Sendable (_ directory: String) async throws -> [String: [UInt8]]
    /// Removes what the checks left outside the scratch folder (the folder itself goes anyway).
    public let cleanUp: @Sendable (_ directory: String) async -> Void

    /// Describes a backend's fixtures.
    public init(
        plantForeign: @escaping @Sendable (_ directory: String) async throws -> [(label: String, path: String)],
        plantDamaged: @escaping @Sendable (_ path: String) async throws -> Void,
        snapshot: @escaping @Sendable (_ directory: String) async throws -> [String: [UInt8]],
        cleanUp: @escaping @Sendable (_ directory: String) async -> Void
    ) {
        self.plantForeign = plantForeign
        self.plantDamaged = plantDamaged
        self.snapshot = snapshot
        self.cleanUp = cleanUp
    }

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

    /// The fixtures of a backend that keeps its store in files at the path.
    public static func files(backendName: String) -> StoreFixtures {
        StoreFixtures(
            plantForeign: { directory in
                var planted: [(label: String, path: String)] = []
                for foreign in foreignFiles where foreign.kind != backendName {
                    let path = directory + "/foreign-\(foreign.kind)"
                    try write(foreign.bytes, to: path)
                    planted.append((foreign.label, path))
                }
                return planted
            },
            plantDamaged: { path in
                var generator = SplitMix64(seed: 0x5EED)
                try write((0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }, to: path)
            },
            snapshot: { directory in snapshotOfFolder(directory) },
            cleanUp: { _ in })
    }

    /// Writes `bytes` to `path`, replacing whatever is there.
    static func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ConformanceFailure("could not write the fixture \(path)")
        }
    }

    /// Every file in the folder with its bytes.
    ///
    /// An LMDB lock file (`*-lock`) is compared by presence only: LMDB records every reader in
    /// it, so merely looking at an environment rewrites it, while it holds no data.
    static func snapshotOfFolder(_ directory: String) -> [String: [UInt8]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var result: [String: [UInt8]] = [:]
        for name in names {
            let path = directory + "/" + name
            result[name] = name.hasSuffix("-lock") ? [] : FileManager.default.contents(atPath: path).map { Array($0) }
        }
        return result
    }
}
