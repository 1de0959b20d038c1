import AccountBackendKit
import AccountCore
import AccountServerSettings

/// `server.…`: how `accounts serve` listens and limits clients (``ServerSettings``, whose
/// defaults are these keys').
enum ServerSection {
    static let secretFile = BackendSetting.path(
        "secret_file",
        summary: "the key that signs device and form tokens, made on first use (default: in the state folder)")

    static let publicURL = BackendSetting.text(
        "public_url", default: ServerSettings().publicURL,
        summary: "where people reach the server, for links in mail (empty: http:// and server.host:port)")

    static func read(_ reader: SectionReader) throws(AccountError) -> ServerSettings {
        let defaults = ServerSettings()
        var server = defaults
        server.host = try reader.value(
            .text("host", default: defaults.host, summary: "the address `accounts serve` listens on"))
        server.port = try reader.value(
            .integer(
                "port", in: 0...65_535, default: defaults.port,
                summary: "the TCP port (0: any free port, printed at start)"))
        server.maxBodyBytes = try reader.value(
            .integer(
                "max_body_bytes", in: 1_024...16_777_216, default: defaults.maxBodyBytes,
                summary: "the largest request body; a larger one gets 413"))
        server.idleTimeoutSeconds = try reader.value(
            .integer(
                "idle_timeout_seconds", in: 1...3_600, default: defaults.idleTimeoutSeconds,
                summary: "a connection without a request for this long is closed"))
        server.requestTimeoutSeconds = try reader.value(
            .integer(
                "request_timeout_seconds", in: 1...3_600, default: defaults.requestTimeoutSeconds,
                summary: "a sign-up, login, password change or withdrawal slower than this gets 503"))
        server.trustedProxies = try reader.list(
            .text(
                "trusted_proxies", default: defaults.trustedProxies.joined(separator: ", "),
                summary: "comma-separated peer addresses or CIDR blocks whose X-Forwarded-For names the client"),
            IPAddressRange.problem)
        server.monitoringClients = try reader.list(
            .text(
                "monitoring_clients", default: defaults.monitoringClients.joined(separator: ", "),
                summary: "comma-separated client addresses or CIDR blocks that may read /metrics and /healthz's details"
            ),
            IPAddressRange.problem)
        server.corsOrigins = try reader.list(
            .text(
                "cors_origins", default: defaults.corsOrigins.joined(separator: ", "),
                summary: "comma-separated browser origins whose pages may call the API"),
            WebOrigin.problem)
        server.signUpsPerMinute = try reader.value(
            .integer(
                "signups_per_minute", in: 1...1_000_000, default: defaults.signUpsPerMinute,
                summary: "sign-ups one client may make per minute (429 beyond)"))
        server.loginsPerMinute = try reader.value(
            .integer(
                "logins_per_minute", in: 1...1_000_000, default: defaults.loginsPerMinute,
                summary: "logins one client may try per minute (429 beyond)"))
        server.passwordChecksPerMinute = try reader.value(
            .integer(
                "password_checks_per_minute", in: 1...1_000_000, default: defaults.passwordChecksPerMinute,
                summary: "password changes and withdrawals one client may try per minute (429 beyond)"))
        server.clientIPv6PrefixLength = try reader.value(
            .integer(
                "client_ipv6_prefix", in: 1...128, default: defaults.clientIPv6PrefixLength,
                summary: "the IPv6 prefix length that is one client for the per-minute limits"))
        server.hashingConcurrency = try reader.value(
            .integer(
                "hashing_concurrency", in: 0...1_024, default: defaults.hashingConcurrency,
                summary: "Argon2id computations at once (0: one per core)"))
        server.hashingQueue = try reader.value(
            .integer(
                "hashing_queue", in: 0...100_000, default: defaults.hashingQueue,
                summary: "requests that may wait for hashing; more get 503 with Retry-After"))
        server.healthMinFreeMiB = try reader.value(
            .integer(
                "health_min_free_mib", in: 0...1_073_741_824, default: defaults.healthMinFreeMiB,
                summary: "below this many MiB free on the store's disk, /healthz answers 503 (0: report only)"))
        server.webPages = try reader.value(
            .boolean(
                "web_pages", default: defaults.webPages,
                summary: "serve the web pages (start, sign-up, welcome, login…) beside the API"))
        server.secureCookies = try reader.value(
            .boolean(
                "secure_cookies", default: defaults.secureCookies,
                summary: "mark the pages' cookies Secure: set it when people reach the site over HTTPS"))
        server.secretFile = try reader.path(Self.secretFile) ?? reader.locations.stateDirectory + "/server-secret"
        let certificate = BackendSetting.path(
            "tls_certificate", summary: "a PEM certificate chain: serve HTTPS directly (with server.tls_key)")
        let key = BackendSetting.path("tls_key", summary: "the PEM private key of server.tls_certificate")
        server.tlsCertificatePath = try reader.path(certificate)
        server.tlsKeyPath = try reader.path(key)
        if (server.tlsCertificatePath == nil) != (server.tlsKeyPath == nil) {
            let (certificateName, keyName) = (reader.key(certificate).name, reader.key(key).name)
            throw .configInvalid(
                key: server.tlsCertificatePath == nil ? certificateName : keyName,
                reason: "HTTPS needs both \(certificateName) and \(keyName)")
        }
        server.hstsMaxAgeSeconds = try reader.value(
            .integer(
                "hsts_max_age", in: 0...63_072_000, default: defaults.hstsMaxAgeSeconds,
                summary: "Strict-Transport-Security max-age in seconds when serving HTTPS directly (0: none)"))
        server.publicURL = try reader.value(Self.publicURL)
        if !server.publicURL.isEmpty, !server.publicURL.hasPrefix("https://"), !server.publicURL.hasPrefix("http://") {
            throw .configInvalid(
                key: reader.key(Self.publicURL).name, reason: "expected an http:// or https:// address")
        }
        return server
    }
}
