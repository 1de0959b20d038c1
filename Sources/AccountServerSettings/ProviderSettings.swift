import Foundation

/// One `providers.NAME.…` section: an outside provider users sign in with. `github` is
/// GitHub's OAuth app (or GitHub Enterprise Server's, by its URLs); any other name is an
/// OpenID Connect provider found through its issuer's `/.well-known/openid-configuration`.
public struct ProviderSettings: Sendable, Equatable {
    /// How the provider is spoken to.
    public enum Kind: String, Sendable, CaseIterable {
        /// GitHub's OAuth 2.0 web flow and its REST API (`/user`, `/user/emails`).
        case github
        /// OpenID Connect: discovery, the authorization code flow, a signed ID token.
        case oidc
    }

    /// The section's name: in the routes (`/v1/providers/NAME/start`) and in stored identities,
    /// so renaming a provider unlinks its identities.
    public var name: String
    public var kind: Kind
    /// What the sign-in button says after "Sign in with".
    public var displayName: String
    /// The issuer (OIDC): its discovery document must name exactly this issuer.
    public var issuer: String
    /// The client id the provider gave this service.
    public var clientID: String
    /// A file whose first line is the client secret (the secret never goes in a setting).
    public var clientSecretFile: String?
    /// The scopes asked for, space-separated as sent.
    public var scopes: String
    /// GitHub's web address (the authorize and token endpoints), for GitHub Enterprise Server.
    public var webURL: String
    /// GitHub's API address.
    public var apiURL: String
    /// Where a Strapi app's sign-in (`/api/connect/NAME`) ends: the app's page, or a scheme of
    /// its own, that trades `?access_token=` at `/api/auth/NAME/callback` (Strapi's "redirect
    /// URL to your front-end app"); empty: Strapi's routes do not offer this provider.
    public var appRedirectURL: String

    /// The names a provider may have: a lowercase letter, then lowercase letters and digits,
    /// at most 32 (it is a path segment, and the `ACCOUNTS_PROVIDERS_NAME_…` variables split
    /// at its end).
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), bytes.count <= 32
        else { return false }
        return bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
    }

    /// The kind a section of this name is unless it says otherwise: GitHub for `github`.
    public static func defaultKind(named name: String) -> Kind { name == "github" ? .github : .oidc }

    /// The defaults of a section named `name`.
    public init(name: String, kind: Kind? = nil) {
        self.name = name
        self.kind = kind ?? Self.defaultKind(named: name)
        displayName = self.kind == .github ? "GitHub" : name
        issuer = ""
        clientID = ""
        clientSecretFile = nil
        scopes = self.kind == .github ? "read:user user:email" : "openid email profile"
        webURL = "https://github.com"
        apiURL = "https://api.github.com"
        appRedirectURL = ""
    }

    /// Why `text` is no address an app's sign-in may end at, or `nil`: an https address, http
    /// on loopback, or an app's own scheme (`com.example.app:/connect`, RFC 8252 §7.1); never a
    /// scheme a browser runs or reads locally.
    public static func appRedirectProblem(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), url.fragment == nil else {
            return "\"\(text)\" is not an address"
        }
        switch scheme {
        case "https", "http": return addressProblem(text)
        case "javascript", "data", "file", "vbscript", "blob", "about":
            return "\"\(text)\" has a scheme a browser would run or read locally"
        default: return nil
        }
    }

    /// Why `text` is no address a provider may be reached at, or `nil`: https, or http to this
    /// machine's loopback only (a provider's answers decide who signs in, so they never cross
    /// a network in clear text).
    public static func addressProblem(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let host = url.host, !host.isEmpty, url.fragment == nil,
            url.user == nil
        else { return "\"\(text)\" is not an https:// address" }
        switch url.scheme {
        case "https": return nil
        case "http" where MailSettings.isLoopback(host): return nil
        case "http": return "\"\(text)\" is http, allowed only on this machine's loopback; use https"
        default: return "\"\(text)\" is not an https:// address"
        }
    }
}
