import AccountBackendKit
import AccountCore

// snippet.descriptor
/// The journal backend, `journal`: an append-only file of JSON lines, one per transaction,
/// flushed before each call returns and shared between processes with `flock`.
public struct JournalBackendDescriptor: BackendDescriptor {
    /// How appends reach the disk.
    public enum Sync: String, Sendable, CaseIterable {
        /// `fdatasync` after every append: a call that returned is on the disk.
        case full
        /// Leave flushing to the operating system: a power cut may lose recent calls.
        case none
    }

    /// `journal.sync`: its one default is written here, and the config reader checks values
    /// against `Sync`'s cases (an unknown word is a `config_invalid` naming the key).
    public static let sync = BackendSetting<Sync>.choice(
        "sync", default: .full,
        summary: "full: flush every append (durable); none: leave it to the OS (a power cut may lose recent calls)")

    // snippet.hide
    /// The start every journal has: its header's first key.
    static let signature = Array(#"{"format":"accountstore-journal""#.utf8)

    /// Whether a file starting with `header` is a journal.
    static func isJournal(_ header: [UInt8]) -> Bool { header.starts(with: signature) }

    /// Describes the backend.
    public init() {}
    // snippet.show

    public var name: String { "journal" }
    public var summary: String { "an append-only journal of JSON lines (an example of an outside backend)" }
    public var storeLocation: StoreLocation { .file(defaultName: "accounts.journal") }
    public var options: [BackendOption] { [Self.sync.option] }
    public var formatVersion: Int { JournalHeader.formatVersion }
    public var capabilities: BackendCapabilities { .all }

    public func open(_ configuration: BackendConfiguration) async throws -> any UserRepository {
        // Where a symbolic link points: creating the journal at the link itself would fail (the
        // link exists) or, for a store that is replaced by rename, fork it.
        let path = configuration.locationFollowingLinks
        if access(path, F_OK) != 0 {
            guard errno == ENOENT else { throw JournalFile.failure("stat", path) }
            guard configuration.createIfMissing else { throw AccountError.storeNotFound(location: path) }
            try JournalFile.create(
                at: path,
                header: JournalHeader(
                    format: JournalHeader.formatName, formatVersion: formatVersion, storeID: StoreInfo.randomStoreID()))
        }
        let flushes = try configuration.value(of: Self.sync) == .full
        var file = try JournalFile(path: path, flushesEveryAppend: flushes, recognizer: configuration.recognizer)
        // An older journal is upgraded by a program that may write, and refused, unchanged, by
        // one that only reads; the upgraded journal is a new file, opened anew.
        while file.header.formatVersion < formatVersion {
            guard configuration.upgradesFormat else {
                throw AccountError.storeUpgradeNeeded(found: file.header.formatVersion, current: formatVersion)
            }
            try JournalUpgrade.upgrade(file)
            file = try JournalFile(path: path, flushesEveryAppend: flushes, recognizer: configuration.recognizer)
        }
        let repository = JournalRepository(file: file)
        _ = try await repository.storeInfo()
        return repository
    }

    public func recognize(fileHeader: [UInt8]) -> String? {
        Self.isJournal(fileHeader) ? "an AccountStore journal" : nil
    }

}
// snippet.end

#if canImport(Glibc)
    import Glibc
#endif
