import AccountCore
import AccountCrypto
import AccountTestSupport
import Glibc
import Testing

@Suite("Crypto")
struct CryptoTests {
    @Test("Argon2id's kept working memory gives hashes that verify, and never leaks outside a hash")
    func keptArgon2Memory() throws {
        let hasher = Argon2idPasswordHasher(opsLimit: 2, memLimitBytes: 1024 * 1024)
        // Hashes and verifications on one thread: the first maps the memory, the rest reuse it
        // (the bytes the previous hash left behind must not change a result).
        var hashes: [String] = []
        for index in 0..<4 { hashes.append(try hasher.hash("Tangerine-Kayak-\(index)")) }
        for (index, hash) in hashes.enumerated() {
            #expect(hasher.verify("Tangerine-Kayak-\(index)", against: hash))
            #expect(!hasher.verify("Tangerine-Kayak-\(index + 1)", against: hash))
        }
        // Outside a hash, an anonymous mapping of the same size is the kernel's: zero-filled.
        let length = 1024 * 1024
        let region = try #require(
            mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0).flatMap {
                $0 == MAP_FAILED ? nil : $0
            })
        defer { munmap(region, length) }
        let bytes = UnsafeRawBufferPointer(start: region, count: length)
        #expect(bytes.allSatisfy { $0 == 0 }, "a mapping made outside a hash is zero-filled")
    }

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
