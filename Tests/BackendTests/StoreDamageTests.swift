import AccountBackendKit
import AccountConformance
import AccountCore
import AccountCrypto
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// Damaged and foreign files at a store's path: each backend gives its typed error and leaves
/// every byte as it was.
@Suite("Store damage")
struct StoreDamageTests {
    static let backends = BackendRegistry.embedded.descriptors

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case zeroLength = "a zero-length file"
        case randomBytes = "random bytes"
        case truncatedOwn = "its own store truncated to half (JSON)"
        case garbledOwn = "its own store with garbage in the middle (JSON)"
        var testDescription: String { rawValue }
    }

    /// Writes a real store of `backend` holding one user at `path`.
    static func makeStore(_ backend: any BackendDescriptor, at path: String) async throws {
        let store = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: path, values: backend.defaultValues))
        try await store.createUser(
            UserRecord(
                id: UserID(rawValue: String(repeating: "a", count: 32)), email: "leesoon7@example.com", nickname: "이순신",
                passwordHash: "$argon2id$", createdAt: Timestamp(millisecondsSince1970: 1)), initialSession: nil)
        try await store.close()
    }

    /// SHA-256 of every file in the folder, to prove nothing changed.
    static func digests(_ folder: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            // LMDB rewrites its lock file whenever it is opened; it holds no data.
            result[name] = name.hasSuffix("-lock") ? "lock" : Hex.encode(SHA256TokenDigester.sha256(bytes))
        }
        return result
    }

    func expectRefused(_ backend: any BackendDescriptor, _ path: String, codes: Set<String>, _ what: String)
        async throws
    {
        let folder = (path as NSString).deletingLastPathComponent
        let before = try Self.digests(folder)
        let error = await accountError {
            let store = try await BackendRegistry.standard.open(
                backend, BackendConfiguration(location: path, values: backend.defaultValues))
            defer { Task { try? await store.close() } }
            _ = try await store.users(after: nil, limit: 10)
            let problems = try await store.integrityCheck()
            if problems != ["ok"] { throw AccountError.storeCorrupted(detail: ErrorDetail(problems.joined())) }
        }
        #expect(
            error.map { codes.contains($0.code) } == true, "\(backend.name) on \(what): \(String(describing: error))")
        #expect(try Self.digests(folder) == before, "\(backend.name) changed the folder after \(what)")
    }

    /// Damage every backend must recognise, and the JSON-only kinds (the file a person edits).
    static let cases: [(any BackendDescriptor, Damage)] =
        backends.flatMap { backend in [Damage.zeroLength, .randomBytes].map { (backend, $0) } }
        + [(Backends.json, .truncatedOwn), (Backends.json, .garbledOwn)]
    static let foreignPairs: [(any BackendDescriptor, any BackendDescriptor)] = backends.flatMap { opener in
        backends.filter { $0.name != opener.name }.map { (opener, $0) }
    }

    @Test("damaged files give store_corrupted and stay as they were", arguments: cases)
    func damaged(_ backend: any BackendDescriptor, _ damage: Damage) async throws {
        let scratch = try ScratchFolder("damage-\(backend.name)")
        let path = scratch.path + "/" + backend.defaultStoreName
        switch damage {
        case .zeroLength:
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        case .randomBytes:
            var generator = SplitMix64(seed: 42)
            let bytes = (0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        case .truncatedOwn, .garbledOwn:
            try await Self.makeStore(backend, at: path)
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            if damage == .truncatedOwn {
                bytes = Array(bytes.prefix(bytes.count / 2))
            } else {
                for index in stride(from: bytes.count / 3, to: bytes.count / 3 + 40, by: 1) { bytes[index] = 0x7B }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        try await expectRefused(backend, path, codes: ["store_corrupted"], damage.rawValue)
    }

    @Test("each backend refuses each other backend's real store", arguments: foreignPairs)
    func foreign(_ opener: any BackendDescriptor, _ owner: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("foreign-\(opener.name)-\(owner.name)")
        let path = scratch.path + "/store"
        try await Self.makeStore(owner, at: path)
        try await expectRefused(opener, path, codes: ["store_kind_mismatch"], "a \(owner.name) store")
        // And the owner still reads it.
        let store = try await BackendRegistry.standard.open(
            owner, BackendConfiguration(location: path, values: owner.defaultValues))
        #expect(try await store.userCount() == 1)
        try await store.close()
    }
}
