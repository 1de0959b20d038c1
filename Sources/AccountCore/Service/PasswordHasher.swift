/// Hashes and verifies passwords; implemented with libsodium's Argon2id in PHC string form.
public protocol PasswordHasher: Sendable {
    /// A PHC string for `password` with the configured parameters and a fresh salt.
    func hash(_ password: String) throws -> String
    /// Whether `password` matches `phcString`. Costs the same whether it matches or not.
    func verify(_ password: String, against phcString: String) -> Bool
    /// Whether `phcString` was made with weaker parameters than the configured ones.
    func needsRehash(_ phcString: String) -> Bool
    /// A well-formed hash with the configured parameters that matches no password, verified on
    /// the unknown-email path so that it costs what a real verification costs.
    func dummyHash() -> String
    /// Whether the password, exactly as the person typed it, matches `stored`. The default
    /// verifies its NFKC form (`PasswordPolicy.normalize`), the form this store hashes;
    /// ``SchemedPasswordHasher`` also checks hashes other systems made, against the password as
    /// typed. A hasher that wraps another forwards this too.
    func verify(typed password: String, against stored: String) -> Bool
    /// Why `stored`, of this hasher's own kind, can never be checked: not whole, or made by
    /// another system with parameters costing more than `limits` allow (a hasher's own cost is
    /// always admitted). The default finds no problem.
    func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem?
}

/// Hashes session tokens for storage (SHA-256, lowercase hex).
public protocol TokenDigester: Sendable {
    /// The 64-character lowercase hex SHA-256 of the token's UTF-8 bytes.
    func digest(_ token: String) -> String
}

extension PasswordHasher {
    public func verify(typed password: String, against stored: String) -> Bool {
        verify(PasswordPolicy.normalize(password), against: stored)
    }

    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        nil
    }
}
