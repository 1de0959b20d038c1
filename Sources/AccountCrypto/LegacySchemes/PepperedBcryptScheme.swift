public import AccountCore

/// Devise's bcrypt with a pepper (`config.pepper`): bcrypt over the password followed by the
/// app's pepper. The importer writes the pepper into each hash,
/// `$devise-bcrypt$<base64 pepper>$<bcrypt hash>`, as Firebase's key is written into its
/// hashes: the hash then verifies on its own, and its pepper is gone with it at the first
/// login. Verified by the system's libxcrypt.
public struct PepperedBcryptScheme: PasswordScheme {
    public let name = "devise_bcrypt_pepper"
    private static let prefix = "$devise-bcrypt$"

    public init() {}

    /// The stored form of a Devise hash made with `pepper`.
    public static func stored(bcrypt: String, pepper: [UInt8]) -> String {
        prefix + Base64.unpadded(pepper) + "$" + bcrypt
    }

    public func owns(_ stored: String) -> Bool {
        stored.hasPrefix(Self.prefix)
    }

    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        let rest = stored.dropFirst(Self.prefix.count)
        guard let separator = rest.firstIndex(of: "$"), let pepper = Base64.decode(rest[..<separator]),
            !pepper.isEmpty
        else { return .malformed("it does not hold a base64 pepper before its bcrypt hash") }
        return HashForms.bcrypt(rest[rest.index(after: separator)...], within: limits)
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        let rest = stored.dropFirst(Self.prefix.count)
        guard let separator = rest.firstIndex(of: "$"), let pepper = Base64.decode(rest[..<separator]) else {
            return false
        }
        let bcrypt = String(rest[rest.index(after: separator)...])
        return CryptScheme.crypt(Array(password.utf8) + pepper, setting: bcrypt).map {
            ConstantTime.equal(Array($0.utf8), Array(bcrypt.utf8))
        } ?? false
    }
}
