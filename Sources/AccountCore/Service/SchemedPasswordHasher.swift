/// The current hasher, which makes every new hash, with the legacy schemes it also verifies.
///
/// A stored hash a legacy scheme owns is verified by that scheme, against the password exactly
/// as typed (those systems never normalized it), and always `needsRehash`: the service
/// replaces it with the current hasher's at the first successful login. Anything else is the
/// current hasher's kind, which this store fills with NFKC-normalized passwords; one made
/// elsewhere (an Argon2id hash from Django or Kratos) was made from the password as typed, so
/// a password that NFKC changes is tried in both forms. Such a hash's parameters differ from
/// the current ones, so it is replaced at the first login too.
public struct SchemedPasswordHasher: PasswordHasher {
    /// Makes every new hash, and verifies its own.
    public let current: any PasswordHasher
    /// The schemes of hashes made elsewhere, tried in order.
    public let legacy: [any PasswordScheme]
    /// The most a hash made elsewhere may cost to check: one over them matches nothing, and is
    /// never run.
    public let limits: LegacyCostLimits

    /// `current` for new hashes, `legacy` for the hashes of other systems, checked within `limits`.
    public init(
        current: any PasswordHasher, legacy: [any PasswordScheme], limits: LegacyCostLimits = LegacyCostLimits()
    ) {
        self.current = current
        self.legacy = legacy
        self.limits = limits
    }

    /// Why `stored` can never be checked (not whole, or over ``limits``), or `nil`: asked of
    /// the legacy scheme that owns it, else of the current hasher.
    public func problem(_ stored: String) -> HashProblem? {
        // An account without a password (``UserRecord/noPassword``) is whole as it is.
        if stored == UserRecord.noPassword { return nil }
        if let scheme = legacyScheme(of: stored) { return scheme.problem(stored, within: limits) }
        return current.problem(stored, within: limits)
    }

    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        SchemedPasswordHasher(current: current, legacy: legacy, limits: limits).problem(stored)
    }

    /// The legacy scheme that owns `stored`, or `nil` for the current hasher's.
    public func legacyScheme(of stored: String) -> (any PasswordScheme)? {
        legacy.first { $0.owns(stored) }
    }

    public func hash(_ password: String) throws -> String {
        try current.hash(password)
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        if stored == UserRecord.noPassword { return costingACheck(password) }
        guard problem(stored) == nil else { return false }
        if let scheme = legacyScheme(of: stored) { return scheme.verify(password, against: stored) }
        return current.verify(password, against: stored)
    }

    public func needsRehash(_ stored: String) -> Bool {
        legacyScheme(of: stored) != nil || current.needsRehash(stored)
    }

    public func dummyHash() -> String {
        current.dummyHash()
    }

    public func verify(typed password: String, against stored: String) -> Bool {
        if stored == UserRecord.noPassword { return costingACheck(password) }
        guard problem(stored) == nil else { return false }
        if let scheme = legacyScheme(of: stored) { return scheme.verify(password, against: stored) }
        if current.verify(typed: password, against: stored) { return true }
        // The typed form matches one of this store's own hashes only if it is its own NFKC
        // form, which was just tried: the second try can only match a hash made elsewhere.
        return PasswordPolicy.normalize(password) != password && current.verify(password, against: stored)
    }

    /// `false`, after the check a real hash costs: a password tried on an account that has
    /// none is refused in the time a wrong password takes, so the time tells nothing of it.
    private func costingACheck(_ password: String) -> Bool {
        _ = current.verify(PasswordPolicy.normalize(password), against: current.dummyHash())
        return false
    }
}
