import AccountBackendKit

/// Every key the config accepts: the global ones and each registered backend's section.
/// Unknown keys are errors, so a typo never silently falls back to a default.
struct SettingsSchema: Sendable {
    let keys: [SettingKey]
    let backendNames: [String]
    /// The keys `--store` sets, one per backend, in the registry's order.
    let storeKeyNames: [String]

    init(registry: BackendRegistry) {
        backendNames = registry.names
        storeKeyNames = registry.descriptors.map(Self.storeKeyName(of:))
        var keys = Self.globalKeys(backends: registry.names, defaultBackend: registry.defaultBackendName)
        for backend in registry.descriptors {
            switch backend.storeLocation {
            case .file:
                keys.append(
                    SettingKey(
                        name: Self.storeKeyName(of: backend), kind: .path, defaultValue: nil,
                        summary: "the store file (relative paths are resolved against the config file's folder)"))
            case .named(let key, let defaultName):
                keys.append(
                    SettingKey(
                        name: Self.storeKeyName(of: backend), kind: .text, defaultValue: defaultName,
                        summary: "where on the server the store is (\(key)); several stores can share a server"))
            }
            keys += backend.options.map { SettingKey(backend: backend.name, option: $0) }
        }
        self.keys = keys
    }

    /// The key naming `backend`'s store: `<name>.path` for a file backend, `<name>.<key>` for a
    /// server backend (`postgres.schema`). `--store` sets it; an unset file path defaults to
    /// the XDG data folder.
    static func storeKeyName(of backend: any BackendDescriptor) -> String {
        "\(backend.name).\(backend.storeKey)"
    }

    func key(named name: String) -> SettingKey? {
        keys.first { $0.name == name }
    }

    /// The sections (first components) that may appear at the top of a file.
    var sections: Set<String> {
        Set(keys.compactMap { $0.components.count > 1 ? $0.components[0] : nil })
    }

    static func globalKeys(backends: [String], defaultBackend: String) -> [SettingKey] {
        [
            SettingKey(
                name: "backend", kind: .choice(backends), defaultValue: defaultBackend,
                summary: "which backend keeps the accounts"),
            SettingKey(
                name: "session.file", kind: .path, defaultValue: nil,
                summary: "where the CLI keeps the signed-in session token (mode 0600)"),
            SettingKey(
                name: "session.idle_timeout_minutes", kind: .integer(1...525_600), defaultValue: "60",
                summary: "an unused session expires after this many minutes"),
            SettingKey(
                name: "session.absolute_timeout_hours", kind: .integer(1...8_760), defaultValue: "12",
                summary: "a session expires this many hours after login, however active"),
            SettingKey(
                name: "session.remember_idle_timeout_days", kind: .integer(1...3_650), defaultValue: "30",
                summary: "idle timeout of a \"remember me\" session, in days"),
            SettingKey(
                name: "session.remember_absolute_timeout_days", kind: .integer(1...3_650), defaultValue: "90",
                summary: "absolute lifetime of a \"remember me\" session, in days"),
            SettingKey(
                name: "password.min_length", kind: .integer(8...128), defaultValue: "8",
                summary: "fewest characters (Unicode scalars after NFKC) in a password; never below 8"),
            SettingKey(
                name: "password.min_guesses_log10", kind: .integer(0...30), defaultValue: "6",
                summary: "reject passwords zxcvbn cracks in fewer than 10^this guesses"),
            SettingKey(
                name: "hashing.ops_limit", kind: .integer(1...20), defaultValue: "2",
                summary: "Argon2id passes (t); raising it upgrades hashes at the next login"),
            SettingKey(
                name: "hashing.mem_limit_kib", kind: .integer(8...4_194_304), defaultValue: "19456",
                summary: "Argon2id memory in KiB (m); 19456 is OWASP's minimum"),
            SettingKey(
                name: "login.throttle_after", kind: .integer(1...1_000), defaultValue: "5",
                summary: "consecutive failed logins allowed before the account must wait"),
            SettingKey(
                name: "login.throttle_base_delay_seconds", kind: .integer(1...86_400), defaultValue: "1",
                summary: "the first wait; it doubles with every further failure"),
            SettingKey(
                name: "login.throttle_max_delay_seconds", kind: .integer(1...604_800), defaultValue: "900",
                summary: "the longest wait"),
        ] + serverKeys
    }

    /// The keys of `accounts serve`.
    static let serverKeys: [SettingKey] = [
        SettingKey(
            name: "server.host", kind: .text, defaultValue: "127.0.0.1",
            summary: "the address `accounts serve` listens on"),
        SettingKey(
            name: "server.port", kind: .integer(0...65_535), defaultValue: "8080",
            summary: "the TCP port (0: any free port, printed at start)"),
        SettingKey(
            name: "server.max_body_bytes", kind: .integer(1_024...16_777_216), defaultValue: "65536",
            summary: "the largest request body; a larger one gets 413"),
        SettingKey(
            name: "server.idle_timeout_seconds", kind: .integer(1...3_600), defaultValue: "60",
            summary: "a connection without a request for this long is closed"),
        SettingKey(
            name: "server.request_timeout_seconds", kind: .integer(1...3_600), defaultValue: "30",
            summary: "a sign-up, login, password change or withdrawal slower than this gets 503"),
        SettingKey(
            name: "server.trusted_proxies", kind: .text, defaultValue: "",
            summary: "comma-separated peer addresses or CIDR blocks whose X-Forwarded-For names the client"),
        SettingKey(
            name: "server.monitoring_clients", kind: .text, defaultValue: "127.0.0.1, ::1",
            summary: "comma-separated client addresses or CIDR blocks that may read /metrics and /healthz's details"),
        SettingKey(
            name: "server.cors_origins", kind: .text, defaultValue: "",
            summary: "comma-separated browser origins whose pages may call the API"),
        SettingKey(
            name: "server.signups_per_minute", kind: .integer(1...1_000_000), defaultValue: "10",
            summary: "sign-ups one client may make per minute (429 beyond)"),
        SettingKey(
            name: "server.logins_per_minute", kind: .integer(1...1_000_000), defaultValue: "30",
            summary: "logins one client may try per minute (429 beyond)"),
        SettingKey(
            name: "server.password_checks_per_minute", kind: .integer(1...1_000_000), defaultValue: "10",
            summary: "password changes and withdrawals one client may try per minute (429 beyond)"),
        SettingKey(
            name: "server.hashing_concurrency", kind: .integer(0...1_024), defaultValue: "0",
            summary: "Argon2id computations at once (0: one per core)"),
        SettingKey(
            name: "server.hashing_queue", kind: .integer(0...100_000), defaultValue: "32",
            summary: "requests that may wait for hashing; more get 503 with Retry-After"),
        SettingKey(
            name: "server.health_min_free_mib", kind: .integer(0...1_073_741_824), defaultValue: "64",
            summary: "below this many MiB free on the store's disk, /healthz answers 503 (0: report only)"),
        SettingKey(
            name: "server.web_pages", kind: .boolean, defaultValue: "true",
            summary: "serve the web pages (start, sign-up, welcome, login…) beside the API"),
        SettingKey(
            name: "server.secure_cookies", kind: .boolean, defaultValue: "false",
            summary: "mark the pages' cookies Secure: set it when people reach the site over HTTPS"),
        SettingKey(
            name: "server.tls_certificate", kind: .path, defaultValue: nil,
            summary: "a PEM certificate chain: serve HTTPS directly (with server.tls_key)"),
        SettingKey(
            name: "server.tls_key", kind: .path, defaultValue: nil,
            summary: "the PEM private key of server.tls_certificate"),
    ]
}
