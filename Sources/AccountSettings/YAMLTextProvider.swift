import Configuration

/// The config file's YAML as a provider, parsed from the bytes the loader already read and
/// checked: the file is read once, so a pipe (`--config <(envsubst < accounts.yaml)`) works,
/// and the keys that were checked are the keys that are used even if the file changes meanwhile.
struct YAMLTextProvider: ConfigProvider {
    private let parsed: YAMLSnapshot

    /// Parses `bytes`, the YAML read from `file` (which names the provider).
    init(_ bytes: [UInt8], file: String) throws {
        parsed = try YAMLSnapshot(data: bytes.span.bytes, providerName: "config file \(file)", parsingOptions: .default)
    }

    var providerName: String { parsed.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try parsed.value(forKey: key, type: type)
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>)
            async throws
            -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func snapshot() -> any ConfigSnapshot { parsed }

    func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws ->
            Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
