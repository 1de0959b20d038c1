public import AccountCore
public import AccountServerSettings

/// An outside provider people sign in with: where to send them, and who they are once the
/// provider sends them back with a code.
public protocol SignInProvider: Sendable {
    /// Its section of the settings.
    var settings: ProviderSettings { get }

    /// The provider's page that asks the person to sign in and consent, for this flow.
    func authorizationURL(state: String, codeChallenge: String, nonce: String, redirectURI: String) async throws
        -> String

    /// Trades the callback's code for the person's checked profile.
    /// - Throws: `providerFlowInvalid` when the provider refuses the code (used, expired,
    ///   another client's, a verifier that does not match); `providerFailed` when it cannot be
    ///   reached or answers what it should not (an ID token not signed by its keys, for
    ///   another audience, expired, with another nonce).
    func profile(code: String, codeVerifier: String, nonce: String, redirectURI: String) async throws
        -> ProviderProfile
}

extension SignInProvider {
    /// The provider's name.
    public var name: String { settings.name }

    /// What `error` of a token endpoint's answer (RFC 6749 §5.2) means here: the code was
    /// refused, which the person can retry by starting again.
    static func refusal(_ error: String?) -> AccountError {
        .providerFlowInvalid(reason: "the provider refused the code (\(OAuthErrorCode.shown(error)))")
    }
}

/// An OAuth error code as it may be shown: RFC 6749 limits them to printable ASCII without
/// `"` and `\`; anything else, or a long one, is not repeated.
public enum OAuthErrorCode {
    /// `error` when it is such a code, else "no reason given".
    public static func shown(_ error: String?) -> String {
        guard let error, !error.isEmpty, error.utf8.count <= 64,
            error.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else { return "no reason given" }
        return error
    }
}
