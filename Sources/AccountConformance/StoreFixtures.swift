import AccountCore
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// How the conformance suite plants, damages, looks at and removes a backend's stores for its
/// store-format checks. File backends get ``files(samples:)``; a server backend maps each scratch
/// path to a place of its own (``BackendFixtures/scratchLocation(for:)``) and supplies its own
/// (``BackendFixtures/storeFixtures(values:)``).
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
    /// How to make a store unreachable in the middle of a write; `nil` when the backend's
    /// fixtures have no way to, and the check that needs one is skipped.
    public let cutOff: StoreCutOff?

    /// Describes a backend's fixtures.
    public init(
        plantForeign: @escaping @Sendable (_ directory: String) async throws -> [(label: String, path: String)],
        plantDamaged: @escaping @Sendable (_ path: String) async throws -> Void,
        snapshot: @escaping @Sendable (_ directory: String) async throws -> [String: [UInt8]],
        cleanUp: @escaping @Sendable (_ directory: String) async -> Void, cutOff: StoreCutOff? = nil
    ) {
        self.plantForeign = plantForeign
        self.plantDamaged = plantDamaged
        self.snapshot = snapshot
        self.cleanUp = cleanUp
        self.cutOff = cutOff
    }

    /// The fixtures of a backend that keeps its store in files at the path: `samples` are the
    /// other backends' files (from the registry the suite runs in).
    public static func files(samples: [ForeignStoreSample]) -> StoreFixtures {
        StoreFixtures(
            plantForeign: { directory in
                var planted: [(label: String, path: String)] = []
                for sample in samples {
                    let path = directory + "/foreign-\(sample.name)"
                    try write(sample.bytes, to: path)
                    planted.append((sample.label, path))
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
    /// - Throws: `AccountError.storeIO` when it cannot.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw AccountError.storeIO(detail: "could not write the fixture \(path)")
        }
    }

    /// Every file in the folder with its bytes.
    ///
    /// An LMDB lock file (`*-lock`) is compared by presence only: LMDB records every reader in
    /// it, so merely looking at an environment rewrites it, while it holds no data.
    public static func snapshotOfFolder(_ directory: String) -> [String: [UInt8]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var result: [String: [UInt8]] = [:]
        for name in names {
            let path = directory + "/" + name
            result[name] = name.hasSuffix("-lock") ? [] : FileManager.default.contents(atPath: path).map { Array($0) }
        }
        return result
    }
}
