import AccountCore
import AccountCrypto

/// The token every state-changing form carries. The browser keeps a random nonce in a
/// `SameSite=Strict`, `HttpOnly` cookie; the form carries the server's signature over that
/// nonce and the browser's session token. A page on another site can make the browser post a
/// form, but cannot read the cookie, and even one who planted a nonce of their own cannot sign
/// it without the server's key, nor sign for a session they do not hold.
struct FormToken: Sendable {
    let key: HMACKey

    /// A new nonce: 32 random bytes from the system's CSPRNG, as hex.
    static func makeNonce() -> String {
        Hex.encode(SodiumRandomSource().bytes(32))
    }

    /// A well-formed nonce (what `makeNonce` returns), so a planted oddity is never used.
    static func isWellFormed(_ nonce: String) -> Bool {
        Hex.isLowercaseHex(nonce, byteCount: 32)
    }

    /// The value a form carries for `nonce` in the browser whose session cookie is `session`.
    func field(nonce: String, session: String?) -> String {
        key.signature(of: Self.message(nonce: nonce, session: session))
    }

    /// Whether `sent` is the field for `nonce` and `session`, compared in constant time.
    func accepts(_ sent: String?, nonce: String, session: String?) -> Bool {
        guard let sent else { return false }
        return key.isSignature(sent, of: Self.message(nonce: nonce, session: session))
    }

    private static func message(nonce: String, session: String?) -> String {
        "accounts-form-v1\n\(nonce)\n\(session ?? "")"
    }
}
