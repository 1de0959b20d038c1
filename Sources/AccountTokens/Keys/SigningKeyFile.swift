public import AccountCore
import AccountCrypto
import DurableFiles
import Foundation
import JWTKit

/// The file that keeps the signing keys (`session.signing_key_file`): JSON, mode 0600, kept
/// like the server's secret. Servers that share a store share it, so a token one signed is
/// checked by every other. Made with one key at the first start; `accounts keys rotate` adds
/// a key in the current one's place.
public enum SigningKeyFile {
    /// The setting that names the file, for the errors that name it.
    public static let settingName = "session.signing_key_file"

    /// The keys in the file at `path`, made first (one new key, mode 0600, its folder 0700
    /// when new) when there is no file there.
    /// - Throws: `configInvalid` naming the setting when the file cannot be read or made, or
    ///   holds anything but keys; such a file is left as it is.
    public static func ring(at path: String, now: Timestamp) throws(AccountError) -> SigningKeyRing {
        try PrivateFolder.make(holding: path, failure: invalid)
        return try locked(path) { () throws(AccountError) in
            if let ring = try read(path) { return ring }
            let ring = SigningKeyRing(keys: [newKey(at: now)])
            try write(ring, to: path)
            return ring
        }
    }

    /// Reads the keys as they are, or nil when there is no file.
    static func read(_ path: String) throws(AccountError) -> SigningKeyRing? {
        guard try StoreFile.version(of: path) != nil else { return nil }
        let bytes: [UInt8]
        do throws(AccountError) {
            bytes = try StoreFile.read(path).bytes
        } catch {
            throw invalid("cannot read \(path): \(error.localizedDescription)")
        }
        guard let ring = try? JSONDecoder().decode(SigningKeyRing.self, from: Data(bytes)), ring.current != nil,
            ring.keys.allSatisfy({ (try? ES256PrivateKey(pem: $0.privateKeyPEM)) != nil })
        else {
            throw invalid(
                "\(path) does not hold signing keys; it was left as it is: move it away to have a new key made "
                    + "(every access token signed so far is then refused)")
        }
        return ring
    }

    /// Puts a new key in the current one's place (``SigningKeyRing/rotate(to:at:tokenLifetimeSeconds:droppingOthers:)``)
    /// and returns the keys now in the file.
    public static func rotate(
        at path: String, now: Timestamp, tokenLifetimeSeconds: Int64, droppingOthers: Bool
    ) throws(AccountError) -> SigningKeyRing {
        try PrivateFolder.make(holding: path, failure: invalid)
        return try locked(path) { () throws(AccountError) in
            var ring = try read(path) ?? SigningKeyRing(keys: [])
            ring.rotate(
                to: newKey(at: now), at: now, tokenLifetimeSeconds: tokenLifetimeSeconds, droppingOthers: droppingOthers
            )
            try write(ring, to: path)
            return ring
        }
    }

    private static func newKey(at now: Timestamp) -> SigningKey {
        SigningKey(
            id: Hex.encode(SodiumRandomSource().bytes(8)), createdAt: now,
            privateKeyPEM: ES256PrivateKey().pemRepresentation)
    }

    private static func write(_ ring: SigningKeyRing, to path: String) throws(AccountError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(ring) else { throw invalid("cannot encode the keys") }
        do throws(AccountError) {
            _ = try StoreFile.replace(path, with: Array(data) + [0x0A])
        } catch {
            throw invalid("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Runs `body` holding the file's lock (`PATH.lock`), so two servers starting at once make
    /// one key, and a rotation never loses another's key.
    private static func locked<T>(_ path: String, _ body: () throws(AccountError) -> T) throws(AccountError) -> T {
        do {
            return try FileLock.withExclusiveLock(path: path + ".lock", timeoutMilliseconds: 10_000) {
                try body()
            }
        } catch let error as AccountError {
            throw error
        } catch {
            throw invalid("cannot lock \(path).lock: \(error)")
        }
    }

    private static func invalid(_ reason: String) -> AccountError {
        .configInvalid(key: settingName, reason: reason)
    }
}
