import AccountBackendKit
import AccountCore
import AccountCrypto

/// `hashing.…`: the cost of new password hashes (Argon2id; the defaults are
/// `Argon2idPasswordHasher.recommended`'s), and the most a hash made elsewhere may cost to check
/// (``LegacyCostLimits``, whose defaults are these keys').
enum HashingSection {
    static func read(_ reader: SectionReader) throws(AccountError) -> (
        hasher: Argon2idPasswordHasher, legacyLimits: LegacyCostLimits
    ) {
        let recommended = Argon2idPasswordHasher.recommended
        let opsLimit = try reader.value(
            .integer(
                "ops_limit", in: 1...20, default: Int(recommended.opsLimit),
                summary: "Argon2id passes (t); raising it upgrades hashes at the next login"))
        let memoryKiB = try reader.value(
            .integer(
                "mem_limit_kib", in: 8...4_194_304, default: recommended.memLimitBytes / 1_024,
                summary: "Argon2id memory in KiB (m); 19456 is OWASP's minimum"))
        let limits = LegacyCostLimits()
        let legacyLimits = LegacyCostLimits(
            bcryptCost: try reader.value(
                .integer(
                    "legacy_bcrypt_max_cost", in: 4...31, default: limits.bcryptCost,
                    summary: "the highest bcrypt cost a hash made elsewhere may have; one above is refused, never run")),
            pbkdf2Iterations: try reader.value(
                .integer(
                    "legacy_pbkdf2_max_iterations", in: 1...2_000_000_000, default: limits.pbkdf2Iterations,
                    summary: "the most PBKDF2 iterations a hash made elsewhere may have")),
            cryptRounds: try reader.value(
                .integer(
                    "legacy_crypt_max_rounds", in: 1_000...999_999_999, default: limits.cryptRounds,
                    summary: "the most sha256-crypt or sha512-crypt rounds a hash made elsewhere may have")),
            argon2MemoryKiB: try reader.value(
                .integer(
                    "legacy_argon2_max_memory_kib", in: 8...4_194_304, default: limits.argon2MemoryKiB,
                    summary: "the most Argon2 memory, in KiB, a hash made elsewhere may ask for")),
            argon2Passes: try reader.value(
                .integer(
                    "legacy_argon2_max_passes", in: 1...1_000, default: limits.argon2Passes,
                    summary: "the most Argon2 passes a hash made elsewhere may ask for")))
        return (Argon2idPasswordHasher(opsLimit: UInt64(opsLimit), memLimitBytes: memoryKiB * 1_024), legacyLimits)
    }
}
