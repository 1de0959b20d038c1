import AccountCore
import DurableFiles

/// The access tokens whose signature was checked with one version of the key file, so that a
/// client sending the same token again (every request until it refreshes) is not checked
/// again: a token is immutable, and what it says does not change. Bounded: when full it starts
/// over. A new version of the keys (a rotation) starts it over too, so a key dropped with
/// `rotate --now` vouches for nothing it signed. The time checks (`exp`, the key still
/// published) are made on every read all the same.
struct CheckedTokens: Sendable {
    /// The most tokens remembered (about 500 bytes each).
    static let capacity = 10_000

    private var version: StoreFile.Version?
    private var claims: [String: (kid: String, claims: AccessTokenClaims)] = [:]

    /// What `token` was found to say under the keys of `version`, if it was checked.
    func lookUp(_ token: String, version: StoreFile.Version?) -> (kid: String, claims: AccessTokenClaims)? {
        guard version == self.version else { return nil }
        return claims[token]
    }

    /// Remembers what `token` says under the keys of `version`.
    mutating func remember(
        _ token: String, kid: String, claims checked: AccessTokenClaims, version: StoreFile.Version?
    ) {
        if version != self.version || claims.count >= Self.capacity {
            claims.removeAll(keepingCapacity: true)
            self.version = version
        }
        claims[token] = (kid, checked)
    }
}
