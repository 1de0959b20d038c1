import AccountCore
import AccountCrypto
import AccountTestSupport
import Testing

@Suite("Crypto")
struct CryptoTests {
    @Test("Argon2id hashes are PHC strings with the configured parameters, salted, and verify")
    func argon2id() throws {
        let hasher = Argon2idPasswordHasher(opsLimit: 2, memLimitBytes: 64 * 1024)
        let first = try hasher.hash("Tangerine-Kayak-42")
        let second = try hasher.hash("Tangerine-Kayak-42")
        #expect(first.hasPrefix("$argon2id$v=19$m=64,t=2,p=1$"))
        #expect(first != second, "each hash has its own salt")
        #expect(hasher.verify("Tangerine-Kayak-42", against: first))
        #expect(!hasher.verify("Tangerine-Kayak-43", against: first))
        #expect(!first.contains("Tangerine"))
    }

    @Test("a hash made with weaker parameters needs a rehash; one made with the same does not")
    func rehash() throws {
        let weak = try Argon2idPasswordHasher.fastForTests.hash("Tangerine-Kayak-42")
        let strong = Argon2idPasswordHasher(opsLimit: 2, memLimitBytes: 64 * 1024)
        #expect(strong.needsRehash(weak))
        #expect(!strong.needsRehash(try strong.hash("x")))
    }

    @Test("the dummy hash has the configured parameters and matches nothing")
    func dummy() {
        let hasher = Argon2idPasswordHasher(opsLimit: 3, memLimitBytes: 32 * 1024)
        let dummy = hasher.dummyHash()
        #expect(dummy.hasPrefix("$argon2id$v=19$m=32,t=3,p=1$"))
        #expect(!hasher.verify("", against: dummy))
        #expect(!hasher.verify("Tangerine-Kayak-42", against: dummy))
        #expect(!hasher.needsRehash(dummy), "the dummy costs what a current hash costs")
    }

    @Test("token digests are SHA-256 in lowercase hex")
    func sha256() {
        #expect(
            SHA256TokenDigester().digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("random bytes differ between draws")
    func random() {
        let source = SodiumRandomSource()
        #expect(source.bytes(32) != source.bytes(32))
        #expect(source.hex(16).count == 32)
    }
}
