/// How `accounts serve` listens and what it allows each client: the `server.…` keys, whose
/// defaults are this type's (`ServerSettings()`), so an application that mounts the routes
/// without settings gets what the service gets. The settings loader fills it in; the routes and
/// the application take it whole.
public struct ServerSettings: Sendable, Equatable {
    /// The address to listen on; `127.0.0.1` unless a reverse proxy or another host must reach it.
    public var host: String
    /// The TCP port; 0 picks a free one (it is printed when the server starts).
    public var port: Int
    /// The largest request body accepted; larger ones get 413 before they are read.
    public var maxBodyBytes: Int
    /// A connection with no request for this long is closed.
    public var idleTimeoutSeconds: Int
    /// How long a request that checks or sets a password may take before it is answered 503.
    public var requestTimeoutSeconds: Int
    /// Peers whose `X-Forwarded-For` names the client (a reverse proxy on the same host, say):
    /// IP addresses or CIDR blocks; any other peer is the client itself.
    public var trustedProxies: [String]
    /// Clients that may read `/metrics` and the details of `/healthz` (IP addresses or CIDR
    /// blocks, matched against the client the per-client limits count); loopback by default.
    public var monitoringClients: [String]
    /// Browser origins whose pages may call the API (CORS); none by default.
    public var corsOrigins: [String]
    /// Sign-ups one client may make per minute.
    public var signUpsPerMinute: Int
    /// Logins one client may try per minute.
    public var loginsPerMinute: Int
    /// Password changes and withdrawals one client may try per minute.
    public var passwordChecksPerMinute: Int
    /// The IPv6 prefix length that is one client for those limits: a /64 is one network's (a
    /// home's, a phone's), whose every address its owner can use.
    public var clientIPv6PrefixLength: Int
    /// Argon2id computations run at once (0: one per core).
    public var hashingConcurrency: Int
    /// Requests that may wait for a hashing slot; one more is answered 503 at once.
    public var hashingQueue: Int
    /// Below this many MiB free on the disk under the store's files, `/healthz` answers 503
    /// (0: it only reports the free space). Not checked for a store on another host.
    public var healthMinFreeMiB: Int
    /// Serves the web pages (start, sign-up, welcome, login, change password, withdrawal).
    public var webPages: Bool
    /// Marks the pages' cookies `Secure`; set it when the site is reached over HTTPS (which the
    /// server cannot know behind a proxy).
    public var secureCookies: Bool
    /// The file of the key that signs device and form tokens (made, mode 0600, when missing);
    /// servers that share a store should share it.
    public var secretFile: String
    /// A PEM certificate chain: the server speaks HTTPS itself (with ``tlsKeyPath``).
    public var tlsCertificatePath: String?
    /// The PEM private key of ``tlsCertificatePath``.
    public var tlsKeyPath: String?
    /// `Strict-Transport-Security`'s max-age when serving HTTPS directly (0: none); a year by
    /// default, as browsers' preload lists ask.
    public var hstsMaxAgeSeconds: Int
    /// The address people reach the server at, for links in mail (`https://accounts.example.com`);
    /// empty: `http://` and the listening address.
    public var publicURL: String = ""

    /// The defaults of every key; give only what differs.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxBodyBytes: Int = 65_536, idleTimeoutSeconds: Int = 60,
        requestTimeoutSeconds: Int = 30, trustedProxies: [String] = [],
        monitoringClients: [String] = ["127.0.0.1", "::1"], corsOrigins: [String] = [], signUpsPerMinute: Int = 10,
        loginsPerMinute: Int = 30, passwordChecksPerMinute: Int = 10, clientIPv6PrefixLength: Int = 64,
        hashingConcurrency: Int = 0, hashingQueue: Int = 32, healthMinFreeMiB: Int = 64, webPages: Bool = true,
        secureCookies: Bool = false, secretFile: String = "server-secret", tlsCertificatePath: String? = nil,
        tlsKeyPath: String? = nil, hstsMaxAgeSeconds: Int = 31_536_000
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.trustedProxies = trustedProxies
        self.monitoringClients = monitoringClients
        self.corsOrigins = corsOrigins
        self.signUpsPerMinute = signUpsPerMinute
        self.loginsPerMinute = loginsPerMinute
        self.passwordChecksPerMinute = passwordChecksPerMinute
        self.clientIPv6PrefixLength = clientIPv6PrefixLength
        self.hashingConcurrency = hashingConcurrency
        self.hashingQueue = hashingQueue
        self.healthMinFreeMiB = healthMinFreeMiB
        self.webPages = webPages
        self.secureCookies = secureCookies
        self.secretFile = secretFile
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.hstsMaxAgeSeconds = hstsMaxAgeSeconds
    }
}
