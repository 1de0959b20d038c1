public import AccountCore
import AccountJSON
import DurableFiles
import Foundation
import JWTKit
import Synchronization

/// Access tokens as JWTs signed ES256 with the keys of a key file (``SigningKeyFile``),
/// checked by anyone against ``keySet()`` (served at `/.well-known/jwks.json`).
///
/// The file is read again when it changes (`accounts keys rotate` on any server of the store),
/// at the next token signed or read. A token is read only when its header says exactly what
/// this signer writes (`alg` ES256, `typ` `at+jwt`, a `kid` of a published key, nothing
/// critical): so a token signed with `none`, with an HMAC keyed by the public key, or by a key
/// not (or no longer) published, proves nothing.
public final class JWTAccessTokens: AccessTokenSigner {
    /// The file the keys are in.
    public let keyFile: String
    /// `iss` of every token: the server's public URL.
    public let issuer: String
    /// `aud` of every token.
    public let audience: String
    private let tokenLifetimeSeconds: Int64
    private let clock: any AccountClock
    private let state: Mutex<Keys>
    /// Tokens whose signature was checked, under the keys as last read.
    private let checked = Mutex(CheckedTokens())

    /// The keys as last read.
    private struct Keys: Sendable {
        let ring: SigningKeyRing
        let version: StoreFile.Version?
        let collection: JWTKeyCollection
        /// Each key's public point (`x`, `y`, base64url), by key id.
        let points: [String: [String]]
    }

    /// Reads (or makes, at the first start) the keys in `keyFile`.
    /// - Throws: `configInvalid` naming `session.signing_key_file` (``SigningKeyFile``).
    public init(
        keyFile: String, issuer: String, audience: String, tokenLifetimeSeconds: Int64,
        clock: any AccountClock = SystemClock()
    ) async throws(AccountError) {
        self.keyFile = keyFile
        self.issuer = issuer
        self.audience = audience
        self.tokenLifetimeSeconds = tokenLifetimeSeconds
        self.clock = clock
        let ring = try SigningKeyFile.ring(at: keyFile, now: clock.now())
        state = Mutex(try await Self.load(ring, version: try? StoreFile.version(of: keyFile)))
    }

    public func sign(_ claims: AccessTokenClaims) async throws -> String {
        let keys = await current()
        guard let key = keys.ring.current else {
            throw AccountError.configInvalid(key: SigningKeyFile.settingName, reason: "it has no current key")
        }
        let payload = AccessTokenPayload(
            iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: claims.userID.rawValue),
            aud: AudienceClaim(value: [audience]), exp: ExpirationClaim(value: Self.date(claims.expiresAt)),
            iat: IssuedAtClaim(value: Self.date(claims.issuedAt)), sid: claims.sessionID, number: claims.number,
            amr: claims.methods)
        var header = JWTHeader()
        header.typ = "at+jwt"
        return try await keys.collection.sign(payload, kid: JWKIdentifier(string: key.id), header: header)
    }

    public func claims(of token: String) async -> AccessTokenClaims? {
        let keys = await current()
        let published = keys.ring.published(at: clock.now(), tokenLifetimeSeconds: tokenLifetimeSeconds)
        if let (kid, known) = checked.withLock({ $0.lookUp(token, version: keys.version) }) {
            return published.contains(where: { $0.id == kid }) ? known : nil
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Self.base64URLDecoded(parts[0]),
            let header = try? JSONSerialization.jsonObject(with: headerBytes) as? [String: Any],
            header["alg"] as? String == "ES256", header["typ"] as? String == "at+jwt", header["crit"] == nil,
            let kid = header["kid"] as? String, published.contains(where: { $0.id == kid }),
            let payload = try? await keys.collection.verify(token, as: AccessTokenPayload.self),
            payload.iss.value == issuer, payload.aud.value.contains(audience)
        else { return nil }
        let claims = AccessTokenClaims(
            userID: UserID(rawValue: payload.sub.value), number: payload.number, sessionID: payload.sid,
            issuedAt: Self.timestamp(payload.iat.value), expiresAt: Self.timestamp(payload.exp.value),
            methods: payload.amr)
        checked.withLock { $0.remember(token, kid: kid, claims: claims, version: keys.version) }
        return claims
    }

    public func keySet() async -> String {
        let keys = await current()
        let published = keys.ring.published(at: clock.now(), tokenLifetimeSeconds: tokenLifetimeSeconds)
        let entries: [JSONValue] = published.compactMap { key in
            guard let point = keys.points[key.id], point.count == 2 else { return nil }
            return .object([
                ("alg", .string("ES256")), ("crv", .string("P-256")), ("kid", .string(key.id)), ("kty", .string("EC")),
                ("use", .string("sig")), ("x", .string(point[0])), ("y", .string(point[1])),
            ])
        }
        return JSONValue.object([("keys", .array(entries))]).serialized()
    }

    // MARK: - The keys

    /// The keys, read again first when the file changed since; the last good read when the
    /// file cannot be read now (a rotation half done is never seen: the file is replaced whole).
    private func current() async -> Keys {
        let cached = state.withLock { $0 }
        guard let version = try? StoreFile.version(of: keyFile), version != cached.version,
            let ring = try? SigningKeyFile.read(keyFile), let fresh = try? await Self.load(ring, version: version)
        else { return cached }
        state.withLock { $0 = fresh }
        return fresh
    }

    private static func load(_ ring: SigningKeyRing, version: StoreFile.Version?) async throws(AccountError) -> Keys {
        let collection = JWTKeyCollection()
        var points: [String: [String]] = [:]
        for key in ring.keys {
            guard let privateKey = try? ES256PrivateKey(pem: key.privateKeyPEM), let point = privateKey.parameters
            else {
                throw AccountError.configInvalid(
                    key: SigningKeyFile.settingName, reason: "the key \(key.id) is not an ES256 private key")
            }
            await collection.add(ecdsa: privateKey, kid: JWKIdentifier(string: key.id))
            points[key.id] = [point.x, point.y]
        }
        // A token names its key; none is taken by default.
        _ = await collection.clearDefault()
        return Keys(ring: ring, version: version, collection: collection, points: points)
    }

    // MARK: - Encodings

    /// JWT's NumericDate is whole seconds.
    private static func date(_ timestamp: Timestamp) -> Date {
        Date(timeIntervalSince1970: TimeInterval(timestamp.millisecondsSince1970 / 1000))
    }

    private static func timestamp(_ date: Date) -> Timestamp {
        Timestamp(millisecondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)) * 1000)
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
