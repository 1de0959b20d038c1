public import AccountCore

/// PBKDF2-HMAC hashes in the modular form Kratos imports and passlib writes:
/// `$pbkdf2-sha256$i=<iterations>,l=<length>$<salt>$<hash>` (Kratos) or
/// `$pbkdf2-sha256$<iterations>$<salt>$<hash>` (passlib), with SHA-1, SHA-256 or SHA-512.
/// Keycloak's credentials and ASP.NET Identity's V2 and V3 hashes are brought into this form by
/// their importers, without losing a bit. Verified with ``PBKDF2``.
public struct PBKDF2Scheme: PasswordScheme {
    public let name: String
    private let prefixes: [String]
    private let digest: PBKDF2.Digest

    /// `$pbkdf2-sha1$` (and passlib's `$pbkdf2$`).
    public static let sha1 = PBKDF2Scheme(name: "pbkdf2_sha1", prefixes: ["$pbkdf2-sha1$", "$pbkdf2$"], digest: .sha1)
    /// `$pbkdf2-sha256$`.
    public static let sha256 = PBKDF2Scheme(name: "pbkdf2_sha256", prefixes: ["$pbkdf2-sha256$"], digest: .sha256)
    /// `$pbkdf2-sha512$`.
    public static let sha512 = PBKDF2Scheme(name: "pbkdf2_sha512", prefixes: ["$pbkdf2-sha512$"], digest: .sha512)

    init(name: String, prefixes: [String], digest: PBKDF2.Digest) {
        self.name = name
        self.prefixes = prefixes
        self.digest = digest
    }

    /// The stored form of a PBKDF2 hash made elsewhere, for an importer: `hash` over `salt` with
    /// `iterations` rounds of HMAC with the digest `algorithm` (`sha1`, `sha256`, `sha512`).
    public static func stored(algorithm: String, iterations: Int, salt: [UInt8], hash: [UInt8]) -> String {
        "$pbkdf2-\(algorithm)$i=\(iterations),l=\(hash.count)$" + Base64.unpadded(salt) + "$" + Base64.unpadded(hash)
    }

    public func owns(_ stored: String) -> Bool {
        prefixes.contains { stored.hasPrefix($0) }
    }

    public func costProblem(_ stored: String, within limits: LegacyCostLimits) -> String? {
        guard let prefix = prefixes.first(where: { stored.hasPrefix($0) }), let phc = PHCFields(stored, prefix: prefix),
            let iterations = phc.parameters["i"].flatMap({ Int($0) }) ?? phc.fields.first.flatMap({ Int($0) })
        else { return nil }
        return limits.problem(pbkdf2Iterations: iterations)
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        guard let prefix = prefixes.first(where: { stored.hasPrefix($0) }),
            let phc = PHCFields(stored, prefix: prefix), phc.fields.count == 3
        else { return false }
        let iterations = phc.integer("i", in: 1...100_000_000) ?? Int(phc.fields[0]).flatMap { $0 > 0 ? $0 : nil }
        guard let iterations, let salt = phc.bytes(1), let expected = phc.bytes(2), !expected.isEmpty,
            phc.parameters["l"].map({ Int($0) == expected.count }) ?? true
        else { return false }
        return ConstantTime.equal(
            PBKDF2.derive(
                Array(password.utf8), salt: salt, iterations: iterations, length: expected.count, digest: digest),
            expected)
    }
}
