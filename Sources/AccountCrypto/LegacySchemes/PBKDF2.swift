import COpenSSLCrypto

/// PBKDF2 (RFC 8018) over HMAC (RFC 2104) with SHA-1, SHA-256 or SHA-512, for the PBKDF2 hashes
/// other systems made (``PBKDF2Scheme``, ``DjangoPBKDF2Scheme``).
///
/// The digests are libcrypto's own (`SHA256_Init` and the like), not its EVP interface: EVP
/// would link OpenSSL's provider tables into `accounts`, whose relocations and start-up code
/// every call of the CLI would pay, for hashes most calls never compute. HMAC's two keyed
/// states are made once per password, and each of the iterations copies them, as OpenSSL's
/// `PKCS5_PBKDF2_HMAC` does.
enum PBKDF2 {
    /// The digest under HMAC.
    enum Digest: Sendable {
        case sha1, sha256, sha512

        /// The digest's size in bytes.
        var length: Int {
            switch self {
            case .sha1: 20
            case .sha256: 32
            case .sha512: 64
            }
        }
    }

    /// The `length` bytes PBKDF2-HMAC derives from `password` and `salt` in `iterations`
    /// rounds (at least 1).
    static func derive(_ password: [UInt8], salt: [UInt8], iterations: Int, length: Int, digest: Digest) -> [UInt8] {
        switch digest {
        case .sha1:
            derive(
                HashFunction(
                    empty: SHA_CTX(), blockSize: 64, outputSize: 20, start: { _ = SHA1_Init(&$0) },
                    update: { _ = SHA1_Update(&$0, $1.baseAddress, $1.count) },
                    finish: { _ = SHA1_Final($1.baseAddress, &$0) }), password, salt, iterations, length)
        case .sha256:
            derive(
                HashFunction(
                    empty: SHA256_CTX(), blockSize: 64, outputSize: 32, start: { _ = SHA256_Init(&$0) },
                    update: { _ = SHA256_Update(&$0, $1.baseAddress, $1.count) },
                    finish: { _ = SHA256_Final($1.baseAddress, &$0) }), password, salt, iterations, length)
        case .sha512:
            derive(
                HashFunction(
                    empty: SHA512_CTX(), blockSize: 128, outputSize: 64, start: { _ = SHA512_Init(&$0) },
                    update: { _ = SHA512_Update(&$0, $1.baseAddress, $1.count) },
                    finish: { _ = SHA512_Final($1.baseAddress, &$0) }), password, salt, iterations, length)
        }
    }

    private static func derive<Context>(
        _ function: HashFunction<Context>, _ password: [UInt8], _ salt: [UInt8], _ iterations: Int, _ length: Int
    ) -> [UInt8] {
        let size = function.outputSize
        let hmac = KeyedHMAC(function, key: password)
        let u = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
        let t = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
        defer {
            u.deallocate()
            t.deallocate()
        }
        var derived: [UInt8] = []
        derived.reserveCapacity(length + size)
        var block: UInt32 = 1
        while derived.count < length {
            // U1 = HMAC(password, salt ‖ INT(block)); Uj = HMAC(password, Uj-1); T = U1 ⊕ … ⊕ Uc.
            let counter = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: block >> $0) }
            hmac.authenticate(salt, counter, into: u)
            _ = t.update(fromContentsOf: u)
            for _ in 1..<max(iterations, 1) {
                hmac.authenticate(UnsafeRawBufferPointer(u), into: u)
                for index in 0..<size { t[index] ^= u[index] }
            }
            derived.append(contentsOf: t)
            block += 1
        }
        return Array(derived.prefix(length))
    }
}

/// HMAC's inner and outer digest states after the padded key, copied for each message, and the
/// buffer the inner digest goes through (owned, hence not copyable).
private struct KeyedHMAC<Context>: ~Copyable {
    private let function: HashFunction<Context>
    private let inner: Context
    private let outer: Context
    private let innerDigest: UnsafeMutableBufferPointer<UInt8>

    init(_ function: HashFunction<Context>, key: [UInt8]) {
        let blockSize = function.blockSize
        var key = key
        if key.count > blockSize { key = function.digest(key) }
        var innerPad = [UInt8](repeating: 0x36, count: blockSize)
        var outerPad = [UInt8](repeating: 0x5C, count: blockSize)
        for (index, byte) in key.enumerated() {
            innerPad[index] ^= byte
            outerPad[index] ^= byte
        }
        self.function = function
        inner = function.absorbing(innerPad)
        outer = function.absorbing(outerPad)
        innerDigest = .allocate(capacity: function.outputSize)
    }

    deinit {
        innerDigest.deallocate()
    }

    /// HMAC of `message` into `out` (which may be where `message` is).
    func authenticate(_ message: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) {
        var context = inner
        function.update(&context, message)
        finish(&context, into: out)
    }

    /// HMAC of `first ‖ second` into `out`.
    func authenticate(_ first: [UInt8], _ second: [UInt8], into out: UnsafeMutableBufferPointer<UInt8>) {
        var context = inner
        first.withUnsafeBytes { function.update(&context, $0) }
        second.withUnsafeBytes { function.update(&context, $0) }
        finish(&context, into: out)
    }

    private func finish(_ context: inout Context, into out: UnsafeMutableBufferPointer<UInt8>) {
        function.finish(&context, innerDigest)
        var context = outer
        function.update(&context, UnsafeRawBufferPointer(innerDigest))
        function.finish(&context, out)
    }
}

/// One of libcrypto's digests: the size of its blocks and of its output, and its functions
/// over its own context type.
private struct HashFunction<Context> {
    /// A zeroed context, which `start` makes ready.
    let empty: Context
    let blockSize: Int
    let outputSize: Int
    let start: (inout Context) -> Void
    let update: (inout Context, UnsafeRawBufferPointer) -> Void
    let finish: (inout Context, UnsafeMutableBufferPointer<UInt8>) -> Void

    /// A context that has taken in `bytes`.
    func absorbing(_ bytes: [UInt8]) -> Context {
        var context = empty
        start(&context)
        bytes.withUnsafeBytes { update(&context, $0) }
        return context
    }

    /// The digest of `bytes`.
    func digest(_ bytes: [UInt8]) -> [UInt8] {
        var context = absorbing(bytes)
        let out = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: outputSize)
        defer { out.deallocate() }
        finish(&context, out)
        return Array(out)
    }
}
