/// A way another system stored passwords, which AccountStore verifies and never writes.
///
/// A user brought in with such a hash signs in with their old password; that login replaces
/// the hash with the current hasher's (Argon2id), so each legacy hash is checked at most once
/// with the right password. Schemes are assembled in one place (`PasswordSchemes.standard` in
/// AccountCrypto) and handed to a ``SchemedPasswordHasher``.
public protocol PasswordScheme: Sendable {
    /// A short stable name operators see (`bcrypt`, `django_pbkdf2_sha256`, `sha512_crypt`).
    var name: String { get }
    /// Whether `stored` is a hash of this scheme, by its form alone.
    func owns(_ stored: String) -> Bool
    /// Whether `password`, exactly as typed, matches `stored`, compared in constant time. A
    /// hash this scheme cannot read matches nothing.
    func verify(_ password: String, against stored: String) -> Bool
    /// Why `stored` can never be checked: not a whole hash of this scheme, or costing more than
    /// `limits` allow to check; `nil` for a hash `verify` can check.
    func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem?
}
