import AccountBackendKit
import AccountCore
import AccountTestSupport
import Foundation
import MemoryBackend
import Testing

@testable import AccountCrypto

/// Hashes made by the systems people move from (Django, the bcrypt package, passlib; see
/// scripts/fixtures/legacy-hashes.py), verified by the schemes and upgraded at the first login.
@Suite("Legacy password schemes")
struct LegacySchemeTests {
    struct Fixture: Decodable, Sendable, CustomTestStringConvertible {
        let scheme: String
        let password: String
        let hash: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        let made_by: String
        var testDescription: String { "\(scheme), \(password.prefix(12))… (\(made_by))" }
    }

    static let fixtures: [Fixture] = {
        let path = PackageFiles.path("Tests/AccountCoreTests/Fixtures/legacy-hashes.json")
        guard let data = FileManager.default.contents(atPath: path),
            let fixtures = try? JSONDecoder().decode([Fixture].self, from: data)
        else { return [] }
        return fixtures
    }()

    /// One fixture of each scheme with the password that NFKC changes (as typed matters).
    static let onePerScheme: [Fixture] = {
        var seen: Set<String> = []
        return fixtures.filter {
            $0.password != PasswordPolicy.normalize($0.password) && seen.insert($0.scheme).inserted
        }
    }()

    static let hasher = PasswordSchemes.standard(current: Argon2idPasswordHasher.fastForTests)

    @Test("the fixtures cover every legacy scheme this build verifies, and Argon2id made elsewhere")
    func coverage() {
        #expect(Set(Self.fixtures.map(\.scheme)) == Set(PasswordSchemes.legacy.map(\.name) + ["argon2id"]))
    }

    @Test("each hash is recognised, checked against the password as typed, and marked for upgrade", arguments: fixtures)
    func verifies(_ fixture: Fixture) {
        #expect(PasswordSchemes.name(of: fixture.hash) == fixture.scheme)
        #expect(Self.hasher.verify(typed: fixture.password, against: fixture.hash), "as typed")
        #expect(!Self.hasher.verify(typed: fixture.password + "!", against: fixture.hash))
        #expect(!Self.hasher.verify(typed: "", against: fixture.hash))
        if fixture.password != PasswordPolicy.normalize(fixture.password) {
            #expect(
                !Self.hasher.verify(typed: PasswordPolicy.normalize(fixture.password), against: fixture.hash),
                "the NFKC form is not what that system hashed")
        }
        #expect(Self.hasher.needsRehash(fixture.hash))
    }

    /// Known answers where the fixtures have none: a derived key longer than the digest (two or
    /// three PBKDF2 blocks), a password longer than HMAC's block, NUL bytes in password and salt.
    /// RFC 6070's vectors, and one more; CPython's `hashlib.pbkdf2_hmac` gives the same bytes.
    @Test(
        "PBKDF2 derives keys longer than one digest, from keys longer than one block, as RFC 6070 and hashlib do",
        arguments: [
            (
                PBKDF2Scheme.sha1, "sha1", "passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096,
                "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"
            ),
            (PBKDF2Scheme.sha1, "sha1", "pass\0word", "sa\0lt", 4096, "56fa6aa75548099dcc37d7f03425e0c3"),
            (
                PBKDF2Scheme.sha512, "sha512", String(repeating: "k", count: 200), "salt", 3,
                "35af7cebd2e1c297550a8cdeae79788b876bbd859d95d49da98b89812d99542e35fe4c71ab53970bf637721774594169913c31b29e"
                    + "3a1f03b3d601d30215647f3598fddd65d8b2047454b00ab3cf6f920ac4e827ba51db47b4933d90f2471dd8de38d9db66558942d3"
                    + "173a387bf36830f06ff6fc76a21083215bb60b13a76115e0c434d3dea269165e367cbe7a575c875d636cb749a4"
            ),
        ])
    func pbkdf2KnownAnswers(
        scheme: PBKDF2Scheme, algorithm: String, password: String, salt: String, iterations: Int, derived: String
    ) throws {
        let hash = try #require(Hex.decode(derived))
        let stored = PBKDF2Scheme.stored(
            algorithm: algorithm, iterations: iterations, salt: Array(salt.utf8), hash: hash)
        #expect(scheme.verify(password, against: stored))
        #expect(!scheme.verify(password + "x", against: stored))
        var flipped = hash
        flipped[flipped.count - 1] ^= 1
        let wrongTail = PBKDF2Scheme.stored(
            algorithm: algorithm, iterations: iterations, salt: Array(salt.utf8), hash: flipped)
        #expect(!scheme.verify(password, against: wrongTail), "the last block counts")
    }

    /// Firebase's signer keys fit in a few AES blocks; this runs the counter past 255, so its
    /// carry into the next byte counts too. Known answer from
    /// `openssl enc -aes-256-ctr -K 000102…1f -iv 0` of bytes `i % 251` (OpenSSL 3.0.19).
    @Test("AES-256-CTR counts its 128-bit counter as OpenSSL does, across a carry")
    func aesCTRKnownAnswer() throws {
        let plain = (0..<4112).map { UInt8($0 % 251) }
        let cipher = ScryptScheme.aes256CTR(key: Array(0..<32), plain)
        #expect(cipher.count == plain.count)
        #expect(Hex.encode(Array(cipher.prefix(16))) == "f29102b52e4c99d7a1fa9061d123798f")
        #expect(
            Hex.encode(Array(cipher.suffix(32)))
                == "49f696cd8458aa1e7a93628fc528d0d5017f046385f90b181b912d2632522d3a", "blocks 255 and 256")
        #expect(ScryptScheme.aes256CTR(key: Array(0..<31), plain).isEmpty, "a key that is not 32 bytes")
    }

    @Test("a damaged legacy hash matches nothing and does not crash")
    func damaged() {
        for damaged in [
            "$2b$04$short", "$6$", "$1$$", "bcrypt_sha256$", "pbkdf2_sha256$0$salt$AAAA", "pbkdf2_sha256$x$salt$AAAA",
            "pbkdf2_sha256$1000$salt$not base64!", "pbkdf2_sha1$1000$salt",
        ] {
            #expect(!Self.hasher.verify("Tangerine-Kayak-42", against: damaged), "\(damaged)")
        }
        #expect(
            !Self.hasher.verify(typed: "Tangerine-Kayak-42", against: "argon2$argon2d$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"))
        #expect(PasswordSchemes.name(of: "sha1$abc$def") == "unknown")
        #expect(PasswordSchemes.name(of: Argon2idPasswordHasher.fastForTests.dummyHash()) == "argon2id")
    }

    @Test(
        "a user brought in with a legacy hash logs in once with it; the hash is Argon2id from then on",
        arguments: onePerScheme)
    func upgradedAtLogin(_ fixture: Fixture) async throws {
        try await ServiceHarness.with(MemoryBackendDescriptor(), hasher: Self.hasher) { h in
            let user = UserRecord(
                id: .random(using: SeededRandom()), email: "leesoon7@example.com", nickname: "이순신",
                passwordHash: fixture.hash, createdAt: h.clock.now())
            try await h.repository.createUser(user, initialSession: nil)
            #expect(
                await accountError {
                    _ = try await h.service.login(
                        email: user.email, password: fixture.password + "!", remember: false)
                } == .invalidCredentials)
            #expect(try await h.repository.user(email: user.email)?.passwordHash == fixture.hash, "unchanged")
            _ = try await h.service.login(email: user.email, password: fixture.password, remember: false)
            let upgraded = try #require(try await h.repository.user(email: user.email)?.passwordHash)
            #expect(upgraded.hasPrefix("$argon2id$") && upgraded != fixture.hash)
            #expect(!Self.hasher.needsRehash(upgraded))
            _ = try await h.service.login(email: user.email, password: fixture.password, remember: false)
        }
    }

    /// Hashes whose parameters would hold a thread for hours or map gigabytes, each over a
    /// default limit (the digests are filler: they are never computed).
    static let absurd: [(String, String)] = [
        ("bcrypt cost 31", "$2b$31$" + String(repeating: "a", count: 53)),
        ("Devise's peppered bcrypt, cost 31", "$devise-bcrypt$cGVwcGVy$$2a$31$" + String(repeating: "a", count: 53)),
        ("Django bcrypt_sha256, cost 31", "bcrypt_sha256$$2b$31$" + String(repeating: "a", count: 53)),
        ("PBKDF2, 2,000,000,000 rounds", "pbkdf2_sha256$2000000000$salt$" + Data(count: 32).base64EncodedString()),
        (
            "passlib PBKDF2, 2,000,000,000 rounds",
            "$pbkdf2-sha256$i=2000000000,l=32$c2FsdA$" + String(repeating: "A", count: 43)
        ),
        ("sha512-crypt, 999,999,999 rounds", "$6$rounds=999999999$saltsalt$" + String(repeating: "a", count: 86)),
        ("Argon2id, 4 GiB", "$argon2id$v=19$m=4194304,t=2,p=1$c2FsdHNhbHQ$" + String(repeating: "A", count: 43)),
        (
            "Argon2i, t = 2^32 - 1",
            "$argon2i$v=19$m=19456,t=4294967295,p=1$c2FsdHNhbHQ$" + String(repeating: "A", count: 43)
        ),
        (
            "Django Argon2, 4 GiB",
            "argon2$argon2id$v=19$m=4194304,t=2,p=1$c2FsdHNhbHQ$" + String(repeating: "A", count: 43)
        ),
    ]

    @Test("a hash over the cost limits is refused, naming its parameter, and never run", arguments: absurd)
    func absurdCostsAreNotRun(_ name: String, _ stored: String) {
        let problem = Self.hasher.problem(stored)
        guard case .tooCostly(let reason) = problem else {
            Issue.record("\(name): \(String(describing: problem))")
            return
        }
        #expect(reason.contains("over the limit"), "\(name): \(reason)")
        // Run, these would take hours or gigabytes: the test would not end.
        #expect(!Self.hasher.verify(typed: "Tangerine-Kayak-42", against: stored), "\(name)")
        #expect(!Self.hasher.verify("Tangerine-Kayak-42", against: stored), "\(name)")
    }

    @Test("the fixtures, made by the systems themselves, are whole and within the limits")
    func shippedHashesAreUsable() {
        for fixture in Self.fixtures {
            #expect(Self.hasher.problem(fixture.hash) == nil, "\(fixture.scheme): \(fixture.made_by)")
        }
    }

    /// The schemes whose hashes have one length: one character less is never whole.
    static let fixedLength: Set<String> = [
        "bcrypt", "sha512_crypt", "sha256_crypt", "md5_crypt", "django_bcrypt_sha256", "django_bcrypt",
        "django_scrypt", "django_pbkdf2_sha256", "django_pbkdf2_sha1", "devise_bcrypt_pepper",
    ]

    @Test(
        "a hash with bytes appended, a line end, or (of a fixed length) one character less is malformed and never verifies",
        arguments: onePerScheme)
    func partialHashesAreMalformed(_ fixture: Fixture) {
        var broken = [
            ("a megabyte appended", fixture.hash + String(repeating: "A", count: 1 << 20)),
            ("a line end appended", fixture.hash + "\n"), ("a space appended", fixture.hash + " "),
        ]
        if Self.fixedLength.contains(fixture.scheme) { broken.append(("cut by one", String(fixture.hash.dropLast()))) }
        for (how, stored) in broken {
            guard case .malformed = Self.hasher.problem(stored) else {
                Issue.record("\(fixture.scheme), \(how): \(String(describing: Self.hasher.problem(stored)))")
                continue
            }
            #expect(!Self.hasher.verify(typed: fixture.password, against: stored), "\(fixture.scheme), \(how)")
        }
    }

    @Test("a bcrypt hash cut to 50 characters says so, and its reason shows no part of the hash")
    func cutBcrypt() throws {
        let fixture = try #require(Self.fixtures.first { $0.scheme == "bcrypt" })
        let problem = Self.hasher.problem(String(fixture.hash.prefix(50)))
        #expect(problem == .malformed("a bcrypt hash is 60 characters long; this one is 50"))
    }

    @Test("a limit set lower refuses what the default allows")
    func configuredLimits() {
        let strict = PasswordSchemes.standard(
            current: Argon2idPasswordHasher.fastForTests, limits: LegacyCostLimits(bcryptCost: 9))
        let cost10 = "$2a$10$" + String(repeating: "a", count: 53)
        #expect(Self.hasher.problem(cost10) == nil)
        #expect(strict.problem(cost10) == .tooCostly("bcrypt cost 10 is over the limit of 9"))
    }

    @Test("the store's own Argon2id cost is never refused, even above the limit for hashes made elsewhere")
    func ownCostIsAdmitted() throws {
        let own = Argon2idPasswordHasher(opsLimit: 3, memLimitBytes: 16 * 1_024)
        let strict = PasswordSchemes.standard(
            current: own, limits: LegacyCostLimits(argon2MemoryKiB: 8, argon2Passes: 1))
        let stored = try own.hash("Tangerine-Kayak-42")
        #expect(strict.problem(stored) == nil)
        #expect(strict.verify(typed: "Tangerine-Kayak-42", against: stored))
        let larger = "$argon2id$v=19$m=32,t=3,p=1$c2FsdHNhbHQ$" + String(repeating: "A", count: 43)
        #expect(strict.problem(larger) == .tooCostly("Argon2 memory of 32 KiB is over the limit of 16"))
    }
}
