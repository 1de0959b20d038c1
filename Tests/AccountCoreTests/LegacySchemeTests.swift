import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountTestSupport
import Foundation
import MemoryBackend
import Testing

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
}
