import AccountCore
import AccountTestSupport
import AccountTokens
import Foundation
import JWTKit
import Testing

/// The ES256 signer of access tokens on its own: what it reads back, what it refuses (tokens
/// forged every way a JWT is forged), its key file, and rotation across two servers.
@Suite("Signed access tokens")
struct AccessTokenSignerTests {
    static let issuer = "https://accounts.example.com"
    static let lifetime: Int64 = 600

    static func claims(_ clock: ManualClock, user: String = "a1b2c3d4e5f60718293a4b5c6d7e8f90") -> AccessTokenClaims {
        let now = clock.now()
        return AccessTokenClaims(
            userID: UserID(rawValue: user), number: 7, sessionID: "5e55", issuedAt: now,
            expiresAt: now.adding(seconds: lifetime), methods: ["pwd"])
    }

    static func signer(_ folder: borrowing ScratchFolder, _ clock: ManualClock, audience: String = "accounts")
        async throws
        -> JWTAccessTokens
    {
        try await JWTAccessTokens(
            keyFile: folder.path + "/keys/signing-keys.json", issuer: issuer, audience: audience,
            tokenLifetimeSeconds: lifetime, clock: clock)
    }

    static func base64URL(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func decoded(_ part: Substring) -> [String: Any] {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return (try? JSONSerialization.jsonObject(with: Data(base64Encoded: text) ?? Data()) as? [String: Any]) ?? [:]
    }

    static func encoded(_ object: [String: Any]) -> String {
        base64URL(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    @Test("a token reads back as signed; its header says ES256, at+jwt and the key; the key file is 0600")
    func roundTrip() async throws {
        let folder = try ScratchFolder("access-tokens")
        let clock = ManualClock()
        let signer = try await Self.signer(folder, clock)
        let claims = Self.claims(clock)
        let token = try await signer.sign(claims)
        #expect(await signer.claims(of: token) == claims)
        let parts = token.split(separator: ".")
        let header = Self.decoded(parts[0])
        #expect(header["alg"] as? String == "ES256" && header["typ"] as? String == "at+jwt")
        let payload = Self.decoded(parts[1])
        #expect(payload["iss"] as? String == Self.issuer && payload["sub"] as? String == claims.userID.rawValue)
        #expect(payload["exp"] as? Int == Int(claims.expiresAt.millisecondsSince1970 / 1000))
        let keyText = await signer.keySet()
        let keySet = try #require(
            try JSONSerialization.jsonObject(with: Data(keyText.utf8)) as? [String: [[String: String]]])
        #expect(keySet["keys"]?.map { $0["kid"] } == [header["kid"] as? String])
        #expect(keySet["keys"]?.first?["d"] == nil, "no private part is published")
        let mode = try FileManager.default.attributesOfItem(atPath: signer.keyFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("forged tokens prove nothing: none, HMAC keyed by the public key, another key, edits, other iss or aud")
    func forgeries() async throws {
        let folder = try ScratchFolder("access-tokens")
        let clock = ManualClock()
        let signer = try await Self.signer(folder, clock)
        let token = try await signer.sign(Self.claims(clock))
        let parts = token.split(separator: ".").map(String.init)
        let header = Self.decoded(Substring(parts[0]))
        let kid = try #require(header["kid"] as? String)
        var payload = Self.decoded(Substring(parts[1]))
        payload["sub"] = "ffffffffffffffffffffffffffffffff"
        let otherUser = Self.encoded(payload)

        var forged: [(String, String)] = []
        forged.append(("alg none", Self.encoded(["alg": "none", "typ": "at+jwt", "kid": kid]) + "." + parts[1] + "."))
        forged.append(("another user, same signature", parts[0] + "." + otherUser + "." + parts[2]))
        forged.append(("signature cut", parts[0] + "." + parts[1] + "." + String(parts[2].dropLast(4))))
        forged.append(("no signature", parts[0] + "." + parts[1] + "."))
        forged.append(
            ("typ JWT", Self.encoded(["alg": "ES256", "typ": "JWT", "kid": kid]) + "." + parts[1] + "." + parts[2]))
        forged.append(
            (
                "crit",
                Self.encoded(["alg": "ES256", "typ": "at+jwt", "kid": kid, "crit": ["exp"]]) + "." + parts[1] + "."
                    + parts[2]
            ))
        // HS256 keyed with the published key set (the classic confusion of a public key as a secret).
        let keySet = await signer.keySet()
        let hmac = JWTKeyCollection()
        await hmac.add(hmac: HMACKey(from: keySet), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        var hsHeader = JWTHeader()
        hsHeader.typ = "at+jwt"
        forged.append(
            (
                "HS256 keyed by the key set",
                try await hmac.sign(Forged(payload), kid: JWKIdentifier(string: kid), header: hsHeader)
            ))
        // Another ES256 key under the published kid.
        let other = JWTKeyCollection()
        await other.add(ecdsa: ES256PrivateKey(), kid: JWKIdentifier(string: kid))
        forged.append(
            (
                "another key, same kid",
                try await other.sign(Forged(payload), kid: JWKIdentifier(string: kid), header: hsHeader)
            ))
        for (name, token) in forged {
            #expect(await signer.claims(of: token) == nil, "\(name)")
        }
        // The same keys for another issuer or audience read nothing of this one's.
        let otherAudience = try await Self.signer(folder, clock, audience: "billing")
        #expect(await otherAudience.claims(of: token) == nil)
    }

    @Test("rotation: the old key checks its tokens until they expire, on every server of the key file; --now ends them")
    func rotation() async throws {
        let folder = try ScratchFolder("access-tokens")
        let clock = ManualClock()
        let first = try await Self.signer(folder, clock)
        let second = try await Self.signer(folder, clock)
        let old = try await first.sign(Self.claims(clock))
        #expect(await second.claims(of: old) != nil, "a server sharing the key file checks the other's tokens")
        clock.advance(seconds: 5)
        let ring = try SigningKeyFile.rotate(
            at: first.keyFile, now: clock.now(), tokenLifetimeSeconds: Self.lifetime, droppingOthers: false)
        #expect(ring.keys.count == 2)
        let new = try await second.sign(Self.claims(clock))
        #expect(Self.decoded(new.split(separator: ".")[0])["kid"] as? String == ring.current?.id, "the new key signs")
        #expect(await first.claims(of: old) != nil)
        #expect(await first.claims(of: new) != nil)
        clock.advance(seconds: Self.lifetime)
        #expect(await first.claims(of: old) == nil, "past the lifetime the retired key is no longer published")
        #expect(!(await first.keySet()).contains(Self.decoded(old.split(separator: ".")[0])["kid"] as! String))
        #expect(await second.claims(of: new) != nil, "checked once: remembered from now on")
        _ = try SigningKeyFile.rotate(
            at: first.keyFile, now: clock.now(), tokenLifetimeSeconds: Self.lifetime, droppingOthers: true)
        #expect(await second.claims(of: new) == nil, "--now ends the previous keys' tokens at once")
    }

    @Test("a key file that holds anything else is reported and left as it is")
    func damagedKeyFile() async throws {
        let folder = try ScratchFolder("access-tokens")
        let path = folder.path + "/signing-keys.json"
        try Data("not keys\n".utf8).write(to: URL(fileURLWithPath: path))
        await #expect(throws: AccountError.self) {
            _ = try await JWTAccessTokens(
                keyFile: path, issuer: Self.issuer, audience: "accounts", tokenLifetimeSeconds: 600)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not keys\n")
    }

    /// A payload as decoded, re-signed as it is.
    struct Forged: JWTPayload {
        let fields: [String: String]
        let numbers: [String: Int]

        init(_ payload: [String: Any]) {
            fields = payload.compactMapValues { $0 as? String }
            numbers = payload.compactMapValues { $0 as? Int }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in fields { try container.encode(value, forKey: Key(stringValue: key)) }
            for (key, value) in numbers { try container.encode(value, forKey: Key(stringValue: key)) }
            try container.encode(["pwd"], forKey: Key(stringValue: "amr"))
        }

        init(from decoder: any Decoder) throws { (fields, numbers) = ([:], [:]) }
        func verify(using algorithm: some JWTAlgorithm) async throws {}

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }
}
