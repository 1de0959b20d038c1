import AccountCore

/// The whole forms of the hashes the schemes read, each parsed to its last byte: a hash cut
/// short, with bytes appended, or with a field that does not decode is malformed here, before
/// anything is computed. Each form then holds its cost parameters to the ``LegacyCostLimits``.
enum HashForms {
    /// The characters of crypt(3)'s base64 (bcrypt's too, in another order).
    private static let cryptAlphabet = Set("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// Whether every byte of `text` is one crypt(3)'s base64 writes.
    private static func isCryptBase64(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy(cryptAlphabet.contains)
    }

    /// A bcrypt string: `$2a$`, `$2b$` or `$2y$`, a two-digit cost from 04 to 31, `$`, and 53
    /// characters of bcrypt's base64 (22 of salt, 31 of hash): 60 characters in all.
    static func bcrypt(_ stored: some StringProtocol, within limits: LegacyCostLimits) -> HashProblem? {
        let bytes = Array(stored.utf8)
        guard bytes.count == 60 else {
            return .malformed("a bcrypt hash is 60 characters long; this one is \(bytes.count)")
        }
        let digits = bytes[4...5].map { Int($0) - 48 }
        guard bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"), Array("aby".utf8).contains(bytes[2]),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"), digits.allSatisfy((0...9).contains)
        else { return .malformed("it does not start as a bcrypt hash does ($2b$ and a two-digit cost)") }
        let cost = digits[0] * 10 + digits[1]
        guard (4...31).contains(cost) else { return .malformed("a bcrypt cost is 04 to 31; this one is \(cost)") }
        guard isCryptBase64(stored.dropFirst(7)) else {
            return .malformed("its salt and hash hold characters bcrypt never writes")
        }
        return limits.problem(bcryptCost: cost).map(HashProblem.tooCostly)
    }

    /// sha256-crypt (`$5$`, a hash of 43 characters) or sha512-crypt (`$6$`, 86): the prefix, an
    /// optional `rounds=N$` (1,000 to 999,999,999, as the specification clamps them), a salt of
    /// at most 16 characters, `$` and the hash.
    static func shaCrypt(_ stored: String, hashLength: Int, within limits: LegacyCostLimits) -> HashProblem? {
        var rest = stored.dropFirst(3)
        var rounds = 5_000
        if rest.hasPrefix("rounds=") {
            let digits = rest.dropFirst("rounds=".count).prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let value = Int(digits), (1_000...999_999_999).contains(value),
                rest.dropFirst("rounds=".count + digits.count).first == "$"
            else { return .malformed("its rounds= is not a number from 1000 to 999999999") }
            rounds = value
            rest = rest.dropFirst("rounds=".count + digits.count + 1)
        }
        let parts = rest.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 16, isCryptBase64(parts[0]) else {
            return .malformed("it is not a salt of at most 16 characters, '$' and the hash")
        }
        guard parts[1].utf8.count == hashLength, isCryptBase64(parts[1]) else {
            return .malformed("its hash is not \(hashLength) characters of crypt's base64")
        }
        return limits.problem(cryptRounds: rounds).map(HashProblem.tooCostly)
    }

    /// md5-crypt: `$1$`, a salt of at most 8 characters (empty allowed), `$` and 22 characters.
    static func md5Crypt(_ stored: String) -> HashProblem? {
        let parts = stored.dropFirst(3).split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 8, isCryptBase64(parts[0]), parts[1].utf8.count == 22,
            isCryptBase64(parts[1])
        else { return .malformed("it is not a salt of at most 8 characters, '$' and a hash of 22 characters") }
        return nil
    }

    /// An Argon2 PHC string, `$argon2id$` or `$argon2i$`, `v=19$`, `m=…,t=…,p=…$`, the salt and
    /// the hash in base64 (at least 8 bytes of salt, 16 to 128 of hash, as libsodium verifies
    /// them). `admitting` is a hasher's own memory (KiB) and passes: the limits rise to them, so
    /// that its own hashes are never refused.
    static func argon2(
        _ stored: some StringProtocol, within limits: LegacyCostLimits,
        admitting own: (memoryKiB: Int, passes: Int)? = nil
    ) -> HashProblem? {
        let fields = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id" || fields[1] == "argon2i" else {
            return .malformed("an Argon2 hash is $argon2id$v=19$m=…,t=…,p=…$salt$hash")
        }
        guard fields[2] == "v=19" else { return .malformed("only Argon2 version 19 (v=19) is verified") }
        let parameters = fields[3].split(separator: ",", omittingEmptySubsequences: false).map {
            $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        }
        guard parameters.count == 3, parameters.map({ $0.first ?? "" }) == ["m", "t", "p"],
            let memory = Int(parameters[0].last ?? ""), let passes = Int(parameters[1].last ?? ""),
            let lanes = Int(parameters[2].last ?? ""), (1...16_777_215).contains(lanes), passes >= 1,
            memory >= 8 * lanes
        else { return .malformed("its parameters are not m=…,t=…,p=… within Argon2's bounds") }
        guard let salt = Base64.decode(fields[4]), salt.count >= 8, let hash = Base64.decode(fields[5]),
            (16...128).contains(hash.count)
        else { return .malformed("its salt or hash is not base64 of a length Argon2 writes") }
        var limits = limits
        if let own {
            limits.argon2MemoryKiB = max(limits.argon2MemoryKiB, own.memoryKiB)
            limits.argon2Passes = max(limits.argon2Passes, own.passes)
        }
        return limits.problem(argon2MemoryKiB: memory, passes: passes).map(HashProblem.tooCostly)
    }
}
