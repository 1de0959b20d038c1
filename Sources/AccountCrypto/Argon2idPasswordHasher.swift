public import AccountCore
import CArgon2Memory
import CSodium

/// Argon2id password hashing through libsodium, in PHC string form
/// (`$argon2id$v=19$m=19456,t=2,p=1$…`).
public struct Argon2idPasswordHasher: PasswordHasher {
    /// Passes over memory (libsodium's `opslimit`).
    public let opsLimit: UInt64
    /// Memory in bytes (libsodium's `memlimit`).
    public let memLimitBytes: Int

    /// OWASP's minimum for Argon2id: t=2, m=19 MiB.
    public static let recommended = Argon2idPasswordHasher(opsLimit: 2, memLimitBytes: 19 * 1024 * 1024)
    /// libsodium's minimum parameters: for tests only, never for real accounts.
    public static let fastForTests = Argon2idPasswordHasher(opsLimit: 1, memLimitBytes: 8192)

    /// The smallest values libsodium accepts.
    public static let minimumOpsLimit = UInt64(crypto_pwhash_argon2id_OPSLIMIT_MIN)
    /// The smallest memory libsodium accepts, in bytes.
    public static let minimumMemLimitBytes = Int(crypto_pwhash_argon2id_MEMLIMIT_MIN)

    /// Creates a hasher with these parameters.
    public init(opsLimit: UInt64, memLimitBytes: Int) {
        Sodium.ensureInitialized()
        self.opsLimit = max(opsLimit, Self.minimumOpsLimit)
        self.memLimitBytes = max(memLimitBytes, Self.minimumMemLimitBytes)
    }

    public func hash(_ password: String) throws -> String {
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        // One mapping per thread, kept between hashes (CArgon2Memory says why and what it costs).
        accounts_argon2_memory_reuse(1)
        defer { accounts_argon2_memory_reuse(0) }
        // utf8CString always has a terminator, so the pointer is never nil, even for "".
        let status = password.utf8CString.withUnsafeBufferPointer { chars in
            crypto_pwhash_argon2id_str(&output, chars.baseAddress!, UInt64(chars.count - 1), opsLimit, memLimitBytes)
        }
        guard status == 0 else {
            throw AccountError.storeIO(
                detail: "Argon2id hashing failed: not enough memory for m=\(memLimitBytes / 1024) KiB")
        }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func verify(_ password: String, against phcString: String) -> Bool {
        // The kept mapping only for this hasher's own memory size: a hash made elsewhere with
        // more memory is mapped and unmapped for that one check, and its memory returned.
        let ownSize = phcString.contains("$m=\(memLimitBytes / 1024),")
        accounts_argon2_memory_reuse(ownSize ? 1 : 0)
        defer { accounts_argon2_memory_reuse(0) }
        return password.utf8CString.withUnsafeBufferPointer { chars in
            crypto_pwhash_argon2id_str_verify(phcString, chars.baseAddress!, UInt64(chars.count - 1)) == 0
        }
    }

    /// An Argon2id hash's whole form, and its cost within `limits` unless it is no more than
    /// this hasher's own (the store's own hashes are never refused).
    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        guard stored.hasPrefix("$argon2id$") else { return .malformed("it is of no scheme this build verifies") }
        return HashForms.argon2(
            stored, within: limits, admitting: (memoryKiB: memLimitBytes / 1_024, passes: Int(opsLimit)))
    }

    public func needsRehash(_ phcString: String) -> Bool {
        crypto_pwhash_argon2id_str_needs_rehash(phcString, opsLimit, memLimitBytes) != 0
    }

    public func dummyHash() -> String {
        // A fixed salt and digest: verifying against it runs Argon2id with the configured
        // parameters and then fails, which is all the unknown-email path needs.
        "$argon2id$v=19$m=\(memLimitBytes / 1024),t=\(opsLimit),p=1$"
            + "c29tZXNhbHRzb21lc2FsdA$" + "YWNjb3VudHN0b3JlLWR1bW15LWhhc2gtbmV2ZXItbWF0Y2g"
    }
}
