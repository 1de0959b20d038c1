import AccountCore
import AccountJSON
import Foundation

/// Where an import of one file stands while it runs, kept in the store it writes to
/// (``UserRepository/setStoreValue(_:forKey:)``) from before its first batch until it is done,
/// so that an import interrupted (a crash, a full disk, Ctrl-C) and run again on the same file
/// goes on where it stopped: the numbers it reserved for the file's users are still theirs,
/// the users it stored are recognised, not reported as conflicts, and nobody is renumbered.
struct ImportCheckpoint: Codable, Sendable, Equatable {
    /// The store's highest number given before the import reserved any: numbers above it, up
    /// to ``reservedTo``, are the file's.
    var reservedAbove: Int
    /// The highest number the import reserved (the file's highest, or the store's own).
    var reservedTo: Int

    enum CodingKeys: String, CodingKey {
        case reservedAbove = "reserved_above"
        case reservedTo = "reserved_to"
    }

    /// The key of the checkpoint of the file whose SHA-256 is `fingerprint`.
    static func key(_ fingerprint: String) -> String { "import:" + fingerprint.prefix(32) }

    /// The checkpoint of the file in `store`, if an import of it did not finish.
    /// - Throws: `storeCorrupted` for a value under its key that does not decode.
    static func read(_ store: any UserRepository, fingerprint: String) async throws -> ImportCheckpoint? {
        guard let text = try await store.storeValue(forKey: key(fingerprint)) else { return nil }
        guard let checkpoint = try? JSONDecoder().decode(ImportCheckpoint.self, from: Data(text.utf8)) else {
            throw AccountError.storeCorrupted(detail: "the import checkpoint \(key(fingerprint)) does not decode")
        }
        return checkpoint
    }

    /// Writes the checkpoint, before the import's first write.
    func save(_ store: any UserRepository, fingerprint: String) async throws {
        let text = JSONValue.object([
            ("reserved_above", .int(Int64(reservedAbove))), ("reserved_to", .int(Int64(reservedTo))),
        ]).serialized()
        try await store.setStoreValue(text, forKey: Self.key(fingerprint))
    }

    /// Removes the checkpoint: the import is done.
    static func clear(_ store: any UserRepository, fingerprint: String) async throws {
        try await store.setStoreValue(nil, forKey: key(fingerprint))
    }
}

/// The numbers an import may not give its users (a number stays with its person): those held
/// by a user of the store, and every one up to ``retiredUpTo`` that the store ever gave, a
/// withdrawn user's included. A resumed import's own reservation is not among them, nor a
/// number an earlier import kept for a record it refused (``keptForRefused``), to the record
/// with that source id.
struct TakenNumbers: Sendable {
    var held: Set<Int>
    var retiredUpTo: Int
    /// Numbers earlier imports reserved for records they refused, by number, with the record's
    /// source id: such a record, fixed and imported again, gets its number back.
    var keptForRefused: [Int: String] = [:]

    /// The key of ``keptForRefused`` in the store's values.
    static let keptForRefusedKey = "import:numbers-kept-for-refused"

    /// What `store` holds, read before an import writes.
    static func of(_ store: any UserRepository) async throws -> TakenNumbers {
        var held = Set<Int>()
        for try await page in store.userPages(size: AccountAdministration.pageSize) {
            for user in page { if let number = user.number { held.insert(number) } }
        }
        var taken = TakenNumbers(held: held, retiredUpTo: try await store.lastUserNumber())
        if let text = try await store.storeValue(forKey: keptForRefusedKey) {
            guard let kept = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else {
                throw AccountError.storeCorrupted(detail: "the value \(keptForRefusedKey) does not decode")
            }
            for (number, sourceID) in kept { if let number = Int(number) { taken.keptForRefused[number] = sourceID } }
        }
        return taken
    }

    /// Whether `number` may go to the record with `sourceID`.
    func isFree(_ number: Int, for sourceID: String?) -> Bool {
        guard !held.contains(number) else { return false }
        return number > retiredUpTo || (sourceID != nil && keptForRefused[number] == sourceID)
    }

    /// `users` with every number this rules out cleared, for the store to number them.
    func keepingFree(_ users: [(user: UserRecord, sourceID: String?)]) -> [UserRecord] {
        users.map { entry in
            guard let number = entry.user.number, !isFree(number, for: entry.sourceID) else { return entry.user }
            var moved = entry.user
            moved.number = nil
            return moved
        }
    }

    /// Writes ``keptForRefused`` back to `store` (removed when empty).
    func saveKeptForRefused(_ store: any UserRepository) async throws {
        guard !keptForRefused.isEmpty else {
            try await store.setStoreValue(nil, forKey: Self.keptForRefusedKey)
            return
        }
        let text = JSONValue.object(
            keptForRefused.sorted { $0.key < $1.key }.map { (String($0.key), JSONValue.string($0.value)) }
        ).serialized()
        try await store.setStoreValue(text, forKey: Self.keptForRefusedKey)
    }
}

/// Hashes a whole file, a chunk at a time: an import's fingerprint.
enum FileFingerprint {
    static func of(_ path: String, failure: @escaping (String) -> AccountError) throws(AccountError) -> String {
        try SourceBytes(path: path, failure: failure).finishDigest()
    }
}
