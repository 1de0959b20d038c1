public import AccountCore
public import AccountCrypto
import Foundation

/// One sign-in through a provider, between its start and the provider's callback: kept in the
/// browser's (or app's) cookie, signed with the server's secret, for ten minutes.
///
/// The `state` sent to the provider is random and the cookie carries it, so a callback is
/// accepted only from the client that started the flow (RFC 6749 §10.12: a link that would sign
/// a victim in to an attacker's account fails without the attacker's cookie). The PKCE verifier
/// (RFC 7636, S256) and the OpenID nonce are derived from the state with the server's secret,
/// so neither leaves the server: the provider sees only the challenge and the nonce, and a
/// stolen code is useless without the verifier.
public struct ProviderFlow: Sendable, Equatable {
    /// What the flow ends in.
    public enum Purpose: String, Sendable {
        /// Sign in, or make an account for a new identity.
        case signIn = "in"
        /// Link the identity to the account `userID`, signed in when the flow started.
        case link = "link"
        /// Sign in for a Strapi app (`/api/connect/NAME`): the flow ends at the app's page with
        /// a one-minute ticket as `access_token`, which `/api/auth/NAME/callback` trades for
        /// `{jwt, user}`.
        case strapi = "strapi"
        /// Sign in on the web pages: the flow ends at the pages' finish, which sets the
        /// session's cookie.
        case web = "web"
    }

    /// The provider's name.
    public var provider: String
    /// The random state, 32 hex digits.
    public var state: String
    public var purpose: Purpose
    /// The account to link to (``Purpose/link`` only).
    public var userID: UserID?
    /// Whether the session opened at the end lasts as long as a remembered login.
    public var remember: Bool
    /// When the flow stops being accepted.
    public var expiresAt: Timestamp

    /// How long a flow may take, the time at the provider included.
    public static let lifetimeSeconds: Int64 = 600

    /// A new flow started at `now`.
    public init(
        provider: String, purpose: Purpose, userID: UserID? = nil, remember: Bool, at now: Timestamp,
        random: any RandomSource
    ) {
        self.provider = provider
        state = random.hex(16)
        self.purpose = purpose
        self.userID = userID
        self.remember = remember
        expiresAt = now.adding(seconds: Self.lifetimeSeconds)
    }

    /// The cookie's value: the fields and the server's signature over them.
    public func cookieValue(key: HMACKey) -> String {
        let fields = [
            "v1", provider, state, purpose.rawValue, userID?.rawValue ?? "-", remember ? "1" : "0",
            String(expiresAt.millisecondsSince1970),
        ]
        return (fields + [key.signature(of: fields.joined(separator: "."))]).joined(separator: ".")
    }

    /// The flow a callback of `provider` with `state` continues, from the cookie `value`.
    /// - Throws: `providerFlowInvalid` for no cookie, one the server did not sign, one of
    ///   another provider or state, or a flow over.
    public static func resume(
        cookie value: String?, provider: String, state: String?, key: HMACKey, at now: Timestamp
    ) throws(AccountError) -> ProviderFlow {
        guard let value, value.utf8.count <= 300 else {
            throw .providerFlowInvalid(reason: "no sign-in was started in this browser")
        }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 8, parts[0] == "v1", key.isSignature(parts[7], of: parts[0..<7].joined(separator: ".")),
            let purpose = Purpose(rawValue: parts[3]), let expires = Int64(parts[6])
        else { throw .providerFlowInvalid(reason: "the sign-in cookie is not this server's") }
        var flow = ProviderFlow(
            provider: parts[1], state: parts[2], purpose: purpose,
            userID: parts[4] == "-" ? nil : UserID(rawValue: parts[4]), remember: parts[5] == "1",
            expiresAt: Timestamp(millisecondsSince1970: expires))
        guard flow.provider == provider else {
            throw .providerFlowInvalid(reason: "the sign-in was started with another provider")
        }
        guard let state, state == flow.state else {
            throw .providerFlowInvalid(reason: "the state is not the one this browser was sent with")
        }
        guard now < flow.expiresAt else { throw .providerFlowInvalid(reason: "the sign-in took over ten minutes") }
        flow.provider = provider
        return flow
    }

    private init(
        provider: String, state: String, purpose: Purpose, userID: UserID?, remember: Bool, expiresAt: Timestamp
    ) {
        self.provider = provider
        self.state = state
        self.purpose = purpose
        self.userID = userID
        self.remember = remember
        self.expiresAt = expiresAt
    }

    /// The PKCE verifier of this flow (RFC 7636 §4.1: 64 characters of the unreserved set).
    public func codeVerifier(key: HMACKey) -> String {
        key.signature(of: "accounts-pkce-v1\n\(provider)\n\(state)")
    }

    /// The PKCE challenge sent to the provider: base64url(SHA-256(verifier)), unpadded.
    public func codeChallenge(key: HMACKey) -> String {
        Self.challenge(of: codeVerifier(key: key))
    }

    /// The S256 challenge of `verifier` (RFC 7636 §4.2).
    public static func challenge(of verifier: String) -> String {
        Base64URL.encode(SHA256TokenDigester.sha256(Array(verifier.utf8)))
    }

    /// The OpenID Connect nonce the ID token must carry.
    public func nonce(key: HMACKey) -> String {
        key.signature(of: "accounts-nonce-v1\n\(provider)\n\(state)")
    }
}

/// Unpadded base64url (RFC 4648 §5), as PKCE and JWTs write it.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
