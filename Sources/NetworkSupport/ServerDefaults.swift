/// The defaults of `accounts serve`'s settings, written once: the settings (`server.…` keys)
/// take them as their defaults, and the routes' initializers (`AccountAPI`, `ClientLimits`)
/// as theirs, so an application that mounts the routes without settings gets what the
/// service gets.
public enum ServerDefaults {
    /// The address to listen on: loopback, for a reverse proxy on the same host.
    public static let host = "127.0.0.1"
    /// The TCP port.
    public static let port = 8080
    /// The largest request body read (64 KiB); a larger one is answered 413.
    public static let maxBodyBytes = 65_536
    /// A connection with no request for this long is closed.
    public static let idleTimeoutSeconds = 60
    /// How long a request that checks or sets a password may take before it is answered 503.
    public static let requestTimeoutSeconds = 30
    /// Who may read `/metrics` and `/healthz`'s details: loopback only.
    public static let monitoringClients = ["127.0.0.1", "::1"]
    /// Sign-ups one client may make per minute.
    public static let signUpsPerMinute = 10
    /// Logins one client may try per minute.
    public static let loginsPerMinute = 30
    /// Password changes and withdrawals one client may try per minute.
    public static let passwordChecksPerMinute = 10
    /// The IPv6 prefix length that makes one client for the limits: a /64 is one network's
    /// (a home's, a phone's), whose every address its owner can use.
    public static let clientIPv6PrefixLength = 64
    /// Argon2id computations at once (0: one per core).
    public static let hashingConcurrency = 0
    /// Requests that may wait for a hashing slot; one more is answered 503.
    public static let hashingQueue = 32
    /// Below this many MiB free under the store, `/healthz` answers 503.
    public static let healthMinFreeMiB = 64
    /// `Strict-Transport-Security`'s max-age when the server speaks HTTPS itself: a year, as
    /// browsers' preload lists ask; 0 sends none.
    public static let hstsMaxAgeSeconds = 31_536_000
    /// Whether the web pages are served beside the API.
    public static let webPages = true
    /// Whether the pages' cookies are marked `Secure` (only right when the site is reached over
    /// HTTPS, which the server cannot know behind a proxy).
    public static let secureCookies = false
}
