public import AccountCore
import COpenSSLCrypto
import CSodium

/// scrypt hashes in the modular form passlib writes and Kratos imports,
/// `$scrypt$ln=<log2 N>,r=<block size>,p=<parallelism>$<salt>$<hash>`, and Firebase Auth's
/// modified scrypt in Kratos's form, `$firescrypt$ln=<memory cost>,r=<rounds>,p=1$<salt>$<hash>$<salt
/// separator>$<signer key>`: the project's scrypt key, taken over the salt and the separator,
/// encrypts the signer key with AES-256-CTR, and that is the stored hash. scrypt is libsodium's
/// (`crypto_pwhash_scryptsalsa208sha256_ll`, any N, r and p), AES libcrypto's block cipher.
public struct ScryptScheme: PasswordScheme {
    public let name: String
    private let prefix: String
    private let firebase: Bool

    /// `$scrypt$`.
    public static let standard = ScryptScheme(name: "scrypt", prefix: "$scrypt$", firebase: false)
    /// `$firescrypt$`, Firebase Auth's export.
    public static let firebase = ScryptScheme(name: "firebase_scrypt", prefix: "$firescrypt$", firebase: true)

    /// The most memory one verification may take (N·r·128 bytes): a stored hash asking for more
    /// is refused rather than allowed to exhaust the server.
    static let maximumMemory = 256 * 1024 * 1024

    init(name: String, prefix: String, firebase: Bool) {
        self.name = name
        self.prefix = prefix
        self.firebase = firebase
    }

    /// The stored form of a Firebase Auth hash, for the importer: the user's `passwordHash` and
    /// `salt`, with the project's hash parameters (all base64 as Firebase shows them).
    public static func firebaseStored(
        hash: [UInt8], salt: [UInt8], saltSeparator: [UInt8], signerKey: [UInt8], rounds: Int, memoryCost: Int
    ) -> String {
        "$firescrypt$ln=\(memoryCost),r=\(rounds),p=1$"
            + [salt, hash, saltSeparator, signerKey].map(Base64.unpadded).joined(separator: "$")
    }

    public func owns(_ stored: String) -> Bool {
        stored.hasPrefix(prefix)
    }

    /// `ln=…,r=…,p=…` and base64 fields (salt and hash; Firebase's separator and signer key
    /// too). scrypt's own bound stands for its cost: memory (N × r × 128 bytes) at most
    /// ``maximumMemory``, which `verify` holds it to too.
    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        guard let phc = PHCFields(stored, prefix: prefix), phc.fields.count == (firebase ? 5 : 3),
            phc.parameters.count == 3, let logN = phc.integer("ln", in: 1...62), let r = phc.integer("r", in: 1...64),
            phc.integer("p", in: 1...16) != nil
        else { return .malformed("it is not \(prefix)ln=<log2 N>,r=<1…64>,p=<1…16>$ and its fields") }
        guard (1..<phc.fields.count).allSatisfy({ (phc.bytes($0)?.count ?? 2_000) <= 1_024 }),
            let hash = phc.bytes(2), (16...(firebase ? 1_024 : 128)).contains(hash.count)
        else { return .malformed("a field is not base64, or the hash is not of a length scrypt writes") }
        return Self.memoryProblem(logN: logN, r: r)
    }

    /// Why scrypt with N = 2^`logN` and `r` takes more than ``maximumMemory``, or `nil`.
    static func memoryProblem(logN: Int, r: Int) -> HashProblem? {
        let memory = (UInt64(1) << UInt64(logN)).multipliedReportingOverflow(by: UInt64(r) * 128)
        guard memory.overflow || memory.partialValue > UInt64(maximumMemory) else { return nil }
        return .tooCostly("scrypt memory of N = 2^\(logN), r = \(r) is over the limit of \(maximumMemory >> 20) MiB")
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        guard let phc = PHCFields(stored, prefix: prefix), phc.fields.count == (firebase ? 5 : 3),
            let logN = phc.integer("ln", in: 1...30), let r = phc.integer("r", in: 1...64),
            let p = phc.integer("p", in: 1...16), let salt = phc.bytes(1), let expected = phc.bytes(2),
            !expected.isEmpty
        else { return false }
        let password = Array(password.utf8)
        guard firebase else {
            return ConstantTime.equal(Self.scrypt(password, salt, logN, r, p, expected.count), expected)
        }
        guard let separator = phc.bytes(3), let signerKey = phc.bytes(4) else { return false }
        let key = Self.scrypt(password, salt + separator, logN, r, p, 64)
        guard key.count == 64 else { return false }
        return ConstantTime.equal(Self.aes256CTR(key: Array(key.prefix(32)), signerKey), expected)
    }

    /// scrypt of `password` (empty on failure or when it would take more than
    /// `maximumMemory`, which never equals a stored hash).
    static func scrypt(_ password: [UInt8], _ salt: [UInt8], _ logN: Int, _ r: Int, _ p: Int, _ length: Int)
        -> [UInt8]
    {
        let n = UInt64(1) << UInt64(logN)
        guard n * UInt64(r) * 128 <= UInt64(maximumMemory) else { return [] }
        Sodium.ensureInitialized()
        var derived = [UInt8](repeating: 0, count: length)
        let made = crypto_pwhash_scryptsalsa208sha256_ll(
            password, password.count, salt, salt.count, n, UInt32(r), UInt32(p), &derived, length)
        return made == 0 ? derived : []
    }

    /// `plain` encrypted with AES-256-CTR under `key`, the 128-bit counter starting at zero and
    /// counting big-endian, as OpenSSL's `aes-256-ctr` does (empty for a key that is not 32 bytes).
    static func aes256CTR(key: [UInt8], _ plain: [UInt8]) -> [UInt8] {
        var schedule = AES_KEY()
        guard key.count == 32, AES_set_encrypt_key(key, 256, &schedule) == 0 else { return [] }
        var counter = [UInt8](repeating: 0, count: 16)
        var stream = [UInt8](repeating: 0, count: 16)
        var out = plain
        for start in stride(from: 0, to: out.count, by: 16) {
            AES_encrypt(counter, &stream, &schedule)
            for index in start..<min(start + 16, out.count) { out[index] ^= stream[index - start] }
            for index in (0..<16).reversed() {
                counter[index] &+= 1
                if counter[index] != 0 { break }
            }
        }
        return out
    }
}
