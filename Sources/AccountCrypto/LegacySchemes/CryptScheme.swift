public import AccountCore
import CSodium
import CXCrypt

/// A crypt(3) hash, verified by the system's libxcrypt (`crypt_rn`): bcrypt (`$2a$`, `$2b$`,
/// `$2y$`), sha512-crypt (`$6$`), sha256-crypt (`$5$`) and md5-crypt (`$1$`), as Devise, PHP,
/// passlib and `/etc/shadow` store them.
public struct CryptScheme: PasswordScheme {
    public let name: String
    private let prefixes: [String]
    /// The whole form of this scheme's hashes.
    private let form: @Sendable (String, LegacyCostLimits) -> HashProblem?

    /// bcrypt in any of its three spellings.
    public static let bcrypt = CryptScheme(name: "bcrypt", prefixes: ["$2a$", "$2b$", "$2y$"]) {
        HashForms.bcrypt($0, within: $1)
    }
    /// sha512-crypt.
    public static let sha512Crypt = CryptScheme(name: "sha512_crypt", prefixes: ["$6$"]) {
        HashForms.shaCrypt($0, hashLength: 86, within: $1)
    }
    /// sha256-crypt.
    public static let sha256Crypt = CryptScheme(name: "sha256_crypt", prefixes: ["$5$"]) {
        HashForms.shaCrypt($0, hashLength: 43, within: $1)
    }
    /// md5-crypt.
    public static let md5Crypt = CryptScheme(name: "md5_crypt", prefixes: ["$1$"]) { stored, _ in
        HashForms.md5Crypt(stored)
    }

    init(name: String, prefixes: [String], form: @escaping @Sendable (String, LegacyCostLimits) -> HashProblem?) {
        self.name = name
        self.prefixes = prefixes
        self.form = form
    }

    public func owns(_ stored: String) -> Bool {
        prefixes.contains { stored.hasPrefix($0) }
    }

    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        form(stored, limits)
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        Self.crypt(Array(password.utf8), setting: stored).map { ConstantTime.equal(Array($0.utf8), Array(stored.utf8)) }
            ?? false
    }

    /// What crypt(3) makes of `phrase` with `setting` (a stored hash gives its own salt and
    /// cost), or `nil` when libxcrypt refuses the setting or the phrase holds a NUL.
    static func crypt(_ phrase: [UInt8], setting: String) -> String? {
        guard !phrase.contains(0) else { return nil }
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        // The work area holds intermediate state of the password: wiped before it is freed.
        defer {
            sodium_memzero(data, MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        data.initialize(to: crypt_data())
        let result = (phrase + [0]).withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                crypt_rn(text, setting, data, Int32(MemoryLayout<crypt_data>.size))
            }
        }
        // libxcrypt answers a setting it cannot use with a failure token starting with "*".
        guard let result, result.pointee != 0x2A else { return nil }
        return String(cString: result)
    }
}
