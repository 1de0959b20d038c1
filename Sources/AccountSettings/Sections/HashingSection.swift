import AccountBackendKit
import AccountCore
import AccountCrypto

/// `hashing.…`: the cost of new password hashes (Argon2id; the defaults are
/// `Argon2idPasswordHasher.recommended`'s).
enum HashingSection {
    static func read(_ reader: SectionReader) throws(AccountError) -> Argon2idPasswordHasher {
        let recommended = Argon2idPasswordHasher.recommended
        let opsLimit = try reader.value(
            .integer(
                "ops_limit", in: 1...20, default: Int(recommended.opsLimit),
                summary: "Argon2id passes (t); raising it upgrades hashes at the next login"))
        let memoryKiB = try reader.value(
            .integer(
                "mem_limit_kib", in: 8...4_194_304, default: recommended.memLimitBytes / 1_024,
                summary: "Argon2id memory in KiB (m); 19456 is OWASP's minimum"))
        return Argon2idPasswordHasher(opsLimit: UInt64(opsLimit), memLimitBytes: memoryKiB * 1_024)
    }
}
