public import AccountBackendKit
public import AccountCore

/// The SQLite backend: one database in WAL mode on the system's libsqlite3, the embedded default.
public struct SQLiteBackendDescriptor: BackendDescriptor {
    /// `synchronous`: how often commits are flushed.
    public static let synchronous = BackendSetting<SQLiteOptions.Synchronous>.choice(
        "synchronous", default: .full,
        summary:
            "full: fsync every commit (durable); normal: fsync at checkpoints (a power cut may lose the last commits)")
    /// `busy_timeout_ms`: how long a write waits for another process's lock.
    public static let busyTimeout = BackendSetting.integer(
        "busy_timeout_ms", in: 0...600_000, default: 5_000,
        summary: "how long a write waits for another process's lock before store_busy")

    /// SQLite's 16-byte file header.
    package static let magic = Array("SQLite format 3\0".utf8)

    /// Describes the backend.
    public init() {}

    public var name: String { "sqlite" }
    public var summary: String {
        "one SQLite database in WAL mode (system libsqlite3); the embedded default, safe for many processes"
    }
    public func summary(in language: Language) -> String {
        language == .korean
            ? "SQLite 데이터베이스 하나 (WAL 모드, 시스템 libsqlite3). 내장 기본값이며 여러 프로세스가 함께 써도 안전합니다"
            : summary
    }
    public var storeLocation: StoreLocation { .file(defaultName: "accounts.sqlite") }
    public var options: [BackendOption] { [Self.synchronous.option, Self.busyTimeout.option] }
    public var formatVersion: Int { SQLiteRepository.formatVersion }
    public var capabilities: BackendCapabilities { .all }

    public func open(_ configuration: BackendConfiguration) async throws -> any UserRepository {
        var options = SQLiteOptions(
            path: configuration.location, synchronous: try configuration.value(of: Self.synchronous),
            busyTimeoutMilliseconds: try configuration.value(of: Self.busyTimeout))
        options.createIfMissing = configuration.createIfMissing
        options.upgradesFormat = configuration.upgradesFormat
        return try await SQLiteRepository.open(options, recognizer: configuration.recognizer)
    }

    public func recognize(fileHeader: [UInt8]) -> String? {
        fileHeader.starts(with: Self.magic) ? "a SQLite database" : nil
    }
}
