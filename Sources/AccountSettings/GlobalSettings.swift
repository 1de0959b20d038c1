import AccountBackendKit
import AccountCore
import AccountCrypto
import NetworkSupport

/// Every global setting, declared once with its type, range, default and doc line; the
/// defaults come from the types that use them (``SessionPolicy``, ``PasswordPolicy``,
/// ``LoginThrottlePolicy``, `Argon2idPasswordHasher.recommended`, `ServerDefaults`), so a library
/// user who builds those without settings gets what the CLI and the service get. The
/// `backend` key, whose choices are the registry's, and each backend's section are added by
/// ``SettingsSchema``.
enum GlobalSettings {
    // MARK: session

    static let sessionFile = GlobalSetting(
        "session", .path("file", summary: "where the CLI keeps its signed-in sessions, one per store (mode 0600)"))
    static let idleTimeoutMinutes = GlobalSetting(
        "session",
        .integer(
            "idle_timeout_minutes", in: 1...525_600, default: Int(SessionPolicy().idleTimeoutSeconds / 60),
            summary: "an unused session expires after this many minutes"))
    static let absoluteTimeoutHours = GlobalSetting(
        "session",
        .integer(
            "absolute_timeout_hours", in: 1...8_760, default: Int(SessionPolicy().absoluteTimeoutSeconds / 3_600),
            summary: "a session expires this many hours after login, however active"))
    static let rememberIdleTimeoutDays = GlobalSetting(
        "session",
        .integer(
            "remember_idle_timeout_days", in: 1...3_650,
            default: Int(SessionPolicy().rememberIdleTimeoutSeconds / 86_400),
            summary: "idle timeout of a \"remember me\" session, in days"))
    static let rememberAbsoluteTimeoutDays = GlobalSetting(
        "session",
        .integer(
            "remember_absolute_timeout_days", in: 1...3_650,
            default: Int(SessionPolicy().rememberAbsoluteTimeoutSeconds / 86_400),
            summary: "absolute lifetime of a \"remember me\" session, in days"))

    // MARK: password and hashing

    static let minimumPasswordLength = GlobalSetting(
        "password",
        .integer(
            "min_length", in: PasswordPolicy.absoluteMinimumLength...PasswordPolicy().maximumLength,
            default: PasswordPolicy().minimumLength,
            summary: "fewest characters (Unicode scalars after NFKC) in a password; never below 8"))
    static let minimumGuessesLog10 = GlobalSetting(
        "password",
        .integer(
            "min_guesses_log10", in: 0...30, default: Int(PasswordPolicy().minimumGuessesLog10),
            summary: "reject passwords zxcvbn cracks in fewer than 10^this guesses"))
    static let hashOpsLimit = GlobalSetting(
        "hashing",
        .integer(
            "ops_limit", in: 1...20, default: Int(Argon2idPasswordHasher.recommended.opsLimit),
            summary: "Argon2id passes (t); raising it upgrades hashes at the next login"))
    static let hashMemoryKiB = GlobalSetting(
        "hashing",
        .integer(
            "mem_limit_kib", in: 8...4_194_304, default: Argon2idPasswordHasher.recommended.memLimitBytes / 1_024,
            summary: "Argon2id memory in KiB (m); 19456 is OWASP's minimum"))

    // MARK: login throttle

    static let throttleAfter = GlobalSetting(
        "login",
        .integer(
            "throttle_after", in: 1...1_000, default: ThrottlePolicy().freeAttempts,
            summary: "consecutive failed logins of one device or client on one account before it must wait"))
    static let throttleBaseDelaySeconds = GlobalSetting(
        "login",
        .integer(
            "throttle_base_delay_seconds", in: 1...86_400, default: Int(ThrottlePolicy().baseDelaySeconds),
            summary: "the first wait; it doubles with every further failure"))
    static let throttleMaxDelaySeconds = GlobalSetting(
        "login",
        .integer(
            "throttle_max_delay_seconds", in: 1...604_800, default: Int(ThrottlePolicy().maximumDelaySeconds),
            summary: "the longest wait"))
    static let accountCeiling = GlobalSetting(
        "login",
        .integer(
            "account_ceiling", in: 1...1_000_000, default: LoginThrottlePolicy().accountCeiling,
            summary: "failed logins from unknown devices, all clients together, an account takes before they wait"))
    static let ceilingDrainSeconds = GlobalSetting(
        "login",
        .integer(
            "ceiling_drain_seconds", in: 1...86_400, default: Int(LoginThrottlePolicy().ceilingDrainSeconds),
            summary: "one failure leaves an account's ceiling every this many seconds"))

    // MARK: server

    static let host = GlobalSetting(
        "server", .text("host", default: ServerDefaults.host, summary: "the address `accounts serve` listens on"))
    static let port = GlobalSetting(
        "server",
        .integer(
            "port", in: 0...65_535, default: ServerDefaults.port,
            summary: "the TCP port (0: any free port, printed at start)"))
    static let maxBodyBytes = GlobalSetting(
        "server",
        .integer(
            "max_body_bytes", in: 1_024...16_777_216, default: ServerDefaults.maxBodyBytes,
            summary: "the largest request body; a larger one gets 413"))
    static let idleTimeoutSeconds = GlobalSetting(
        "server",
        .integer(
            "idle_timeout_seconds", in: 1...3_600, default: ServerDefaults.idleTimeoutSeconds,
            summary: "a connection without a request for this long is closed"))
    static let requestTimeoutSeconds = GlobalSetting(
        "server",
        .integer(
            "request_timeout_seconds", in: 1...3_600, default: ServerDefaults.requestTimeoutSeconds,
            summary: "a sign-up, login, password change or withdrawal slower than this gets 503"))
    static let trustedProxies = GlobalSetting(
        "server",
        .text(
            "trusted_proxies", default: "",
            summary: "comma-separated peer addresses or CIDR blocks whose X-Forwarded-For names the client"))
    static let monitoringClients = GlobalSetting(
        "server",
        .text(
            "monitoring_clients", default: ServerDefaults.monitoringClients.joined(separator: ", "),
            summary: "comma-separated client addresses or CIDR blocks that may read /metrics and /healthz's details"))
    static let corsOrigins = GlobalSetting(
        "server",
        .text("cors_origins", default: "", summary: "comma-separated browser origins whose pages may call the API"))
    static let signUpsPerMinute = GlobalSetting(
        "server",
        .integer(
            "signups_per_minute", in: 1...1_000_000, default: ServerDefaults.signUpsPerMinute,
            summary: "sign-ups one client may make per minute (429 beyond)"))
    static let loginsPerMinute = GlobalSetting(
        "server",
        .integer(
            "logins_per_minute", in: 1...1_000_000, default: ServerDefaults.loginsPerMinute,
            summary: "logins one client may try per minute (429 beyond)"))
    static let passwordChecksPerMinute = GlobalSetting(
        "server",
        .integer(
            "password_checks_per_minute", in: 1...1_000_000, default: ServerDefaults.passwordChecksPerMinute,
            summary: "password changes and withdrawals one client may try per minute (429 beyond)"))
    static let clientIPv6PrefixLength = GlobalSetting(
        "server",
        .integer(
            "client_ipv6_prefix", in: 1...128, default: ServerDefaults.clientIPv6PrefixLength,
            summary: "the IPv6 prefix length that is one client for the per-minute limits"))
    static let hashingConcurrency = GlobalSetting(
        "server",
        .integer(
            "hashing_concurrency", in: 0...1_024, default: ServerDefaults.hashingConcurrency,
            summary: "Argon2id computations at once (0: one per core)"))
    static let hashingQueue = GlobalSetting(
        "server",
        .integer(
            "hashing_queue", in: 0...100_000, default: ServerDefaults.hashingQueue,
            summary: "requests that may wait for hashing; more get 503 with Retry-After"))
    static let healthMinFreeMiB = GlobalSetting(
        "server",
        .integer(
            "health_min_free_mib", in: 0...1_073_741_824, default: ServerDefaults.healthMinFreeMiB,
            summary: "below this many MiB free on the store's disk, /healthz answers 503 (0: report only)"))
    static let webPages = GlobalSetting(
        "server",
        .boolean(
            "web_pages", default: ServerDefaults.webPages,
            summary: "serve the web pages (start, sign-up, welcome, login…) beside the API"))
    static let secureCookies = GlobalSetting(
        "server",
        .boolean(
            "secure_cookies", default: ServerDefaults.secureCookies,
            summary: "mark the pages' cookies Secure: set it when people reach the site over HTTPS"))
    static let secretFile = GlobalSetting(
        "server",
        .path(
            "secret_file",
            summary: "the key that signs device and form tokens, made on first use (default: in the state folder)"))
    static let tlsCertificate = GlobalSetting(
        "server",
        .path("tls_certificate", summary: "a PEM certificate chain: serve HTTPS directly (with server.tls_key)"))
    static let tlsKey = GlobalSetting(
        "server", .path("tls_key", summary: "the PEM private key of server.tls_certificate"))
    static let hstsMaxAgeSeconds = GlobalSetting(
        "server",
        .integer(
            "hsts_max_age", in: 0...63_072_000, default: ServerDefaults.hstsMaxAgeSeconds,
            summary: "Strict-Transport-Security max-age in seconds when serving HTTPS directly (0: none)"))

    /// Every global key but `backend`, in the order `accounts config` and the reference list them.
    static let keys: [SettingKey] =
        [
            sessionFile.key, idleTimeoutMinutes.key, absoluteTimeoutHours.key, rememberIdleTimeoutDays.key,
            rememberAbsoluteTimeoutDays.key, minimumPasswordLength.key, minimumGuessesLog10.key, hashOpsLimit.key,
            hashMemoryKiB.key, throttleAfter.key, throttleBaseDelaySeconds.key, throttleMaxDelaySeconds.key,
            accountCeiling.key, ceilingDrainSeconds.key,
        ] + serverKeys

    /// The keys of `accounts serve`.
    static let serverKeys: [SettingKey] = [
        host.key, port.key, maxBodyBytes.key, idleTimeoutSeconds.key, requestTimeoutSeconds.key, trustedProxies.key,
        monitoringClients.key, corsOrigins.key, signUpsPerMinute.key, loginsPerMinute.key,
        passwordChecksPerMinute.key, clientIPv6PrefixLength.key, hashingConcurrency.key, hashingQueue.key,
        healthMinFreeMiB.key, webPages.key,
        secureCookies.key, secretFile.key, tlsCertificate.key, tlsKey.key, hstsMaxAgeSeconds.key,
    ]
}
