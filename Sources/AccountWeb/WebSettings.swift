/// How the web pages treat their cookies.
public struct WebSettings: Sendable {
    /// Marks every cookie `Secure`: set it when people reach the pages over HTTPS (a TLS reverse
    /// proxy in front of `accounts serve`), so a session cookie never travels in clear.
    public var secureCookies: Bool

    /// - Parameter secureCookies: see the property; off by default, as a plain-HTTP site on
    ///   loopback (development, tests) could not keep a `Secure` cookie.
    public init(secureCookies: Bool = false) {
        self.secureCookies = secureCookies
    }
}
