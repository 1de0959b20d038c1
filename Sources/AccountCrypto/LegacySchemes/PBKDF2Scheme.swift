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

    /// Kratos's `i=<iterations>,l=<length>` or passlib's bare iterations, then a salt and a hash
    /// in base64: `l` bytes (1 to 256) in Kratos's form, the digest's own size in passlib's.
    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        guard let prefix = prefixes.first(where: { stored.hasPrefix($0) }), let phc = PHCFields(stored, prefix: prefix),
            phc.fields.count == 3
        else { return .malformed("it is not $pbkdf2-<digest>$<parameters>$<salt>$<hash>") }
        let kratos = phc.parameters.count == 2 && phc.parameters["i"] != nil && phc.parameters["l"] != nil
        guard let iterations = kratos ? phc.integer("i", in: 1...Int(Int32.max)) : PHCFields.digits(phc.fields[0]),
            iterations > 0
        else { return .malformed("its iterations are not i=<n>,l=<n> nor a bare number") }
        guard let salt = phc.bytes(1), (1...1_024).contains(salt.count), let hash = phc.bytes(2),
            kratos ? phc.integer("l", in: 1...256) == hash.count : hash.count == digest.length
        else { return .malformed("its salt or hash is not base64 of the length it gives") }
        return limits.problem(pbkdf2Iterations: iterations).map(HashProblem.tooCostly)
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
