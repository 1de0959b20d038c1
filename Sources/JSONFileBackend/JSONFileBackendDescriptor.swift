public import AccountBackendKit
public import AccountCore

/// The JSON-file backend: one pretty-printed file, rewritten atomically on every change.
public struct JSONFileBackendDescriptor: BackendDescriptor {
    /// `lock_timeout_ms`: how long a write waits for another process's write.
    public static let lockTimeout = BackendSetting.integer(
        "lock_timeout_ms", in: 0...600_000, default: 5_000,
        summary: "how long a write waits for another process's write before store_busy")

    /// Describes the backend.
    public init() {}

    public var name: String { "json" }
    public var summary: String {
        "one pretty-printed JSON file, rewritten atomically on every change; small stores, easy to read and diff"
    }
    public func summary(in language: Language) -> String {
        language == .korean
            ? "보기 좋게 정리된 JSON 파일 하나. 바뀔 때마다 원자적으로 다시 씁니다. 작은 저장소, 읽고 비교하기 쉬움"
            : summary
    }
    public var storeLocation: StoreLocation { .file(defaultName: "accounts.json") }
    public var options: [BackendOption] { [Self.lockTimeout.option] }
    public var formatVersion: Int { JSONFileRepository.formatVersion }
    public var capabilities: BackendCapabilities { .all }

    public func open(_ configuration: BackendConfiguration) async throws -> any UserRepository {
        var options = JSONFileOptions(
            path: configuration.location, lockTimeoutMilliseconds: try configuration.value(of: Self.lockTimeout))
        options.createIfMissing = configuration.createIfMissing
        options.upgradesFormat = configuration.upgradesFormat
        return try await JSONFileRepository.open(options, recognizer: configuration.recognizer)
    }

    /// A JSON object naming this backend's format. Other JSON documents are not claimed here:
    /// another backend's store may be JSON too (the recognizer names unclaimed JSON generically).
    public func recognize(fileHeader: [UInt8]) -> String? {
        guard JSONStoreDecoder.startsLikeJSONObject(fileHeader) else { return nil }
        let text = String(decoding: fileHeader, as: UTF8.self)
        return text.contains("\"\(JSONStoreDocument.formatName)\"") ? "an AccountStore JSON store" : nil
    }

}
