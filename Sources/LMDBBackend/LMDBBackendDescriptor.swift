public import AccountBackendKit
public import AccountCore

/// The LMDB backend: a memory-mapped environment on the system's liblmdb.
public struct LMDBBackendDescriptor: BackendDescriptor {
    /// `sync`: how commits reach the disk.
    public static let sync = BackendSetting<LMDBOptions.Sync>.choice(
        "sync", default: .full,
        summary:
            "full: flush every commit; nometasync: a power cut may lose the last commit; none: a power cut may lose recent commits"
    )
    /// `map_size_mib`: the initial map size.
    public static let mapSize = BackendSetting.integer(
        "map_size_mib", in: 1...1_048_576, default: 64,
        summary: "the initial map size in MiB; it doubles automatically when a write fills it")

    /// LMDB's meta-page magic, little-endian at byte 16 of the file.
    package static let magic: [UInt8] = [0xDE, 0xC0, 0xEF, 0xBE]

    /// Whether a file starting with `header` is an LMDB environment.
    static func isEnvironment(_ header: [UInt8]) -> Bool {
        header.count >= 20 && Array(header[16..<20]) == magic
    }

    /// Describes the backend.
    public init() {}

    public var name: String { "lmdb" }
    public var summary: String {
        "an LMDB environment (system liblmdb): memory-mapped, fastest reads, one writer at a time"
    }
    public func summary(in language: Language) -> String {
        language == .korean
            ? "LMDB 환경 (시스템 liblmdb). 메모리 매핑으로 읽기가 가장 빠르고, 쓰기는 한 번에 하나씩입니다"
            : summary
    }
    public var storeLocation: StoreLocation { .file(defaultName: "accounts.lmdb") }
    public var options: [BackendOption] { [Self.sync.option, Self.mapSize.option] }
    public var formatVersion: Int { LMDBRepository.formatVersion }
    public var capabilities: BackendCapabilities { .all }

    public func open(_ configuration: BackendConfiguration) async throws -> any UserRepository {
        var options = LMDBOptions(
            path: configuration.location, sync: try configuration.value(of: Self.sync),
            mapSizeMiB: try configuration.value(of: Self.mapSize))
        options.createIfMissing = configuration.createIfMissing
        options.upgradesFormat = configuration.upgradesFormat
        return try await LMDBRepository.open(options, recognizer: configuration.recognizer)
    }

    public func recognize(fileHeader: [UInt8]) -> String? {
        Self.isEnvironment(fileHeader) ? "an LMDB environment" : nil
    }
}
