public import AccountCore
import AccountCrypto

/// Firebase Auth's `firebase auth:export users.json --format=json`. Each user's
/// `passwordHash` and `salt`, with the project's hash parameters (which the export does not
/// hold: the operator gives them), become Firebase's modified scrypt hash. The nickname comes
/// from `displayName`; `createdAt` is kept.
public struct FirebaseSource: ForeignSource {
    public static let name = "firebase"
    let parameters: ForeignSourceOptions.FirebaseHash

    /// A reader for a project with these hash parameters.
    public init(parameters: ForeignSourceOptions.FirebaseHash) {
        self.parameters = parameters
    }

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        let bytes = try SourceProblem.contents(of: path, "Firebase Auth")
        guard let users = SourceJSON.decode(bytes)?["users"] else {
            throw SourceProblem.invalid(
                path, "Firebase Auth", "it has no \"users\" array", "\"users\" 배열이 없습니다")
        }
        return users.elements.enumerated().map { index, user in
            var password = ForeignAccount.Password.none(.noPassword("it signs in only with a provider"))
            if let hash = user["passwordHash"]?.text.flatMap(Base64.decode),
                let salt = user["salt"]?.text.flatMap(Base64.decode), !hash.isEmpty
            {
                password = .hash(
                    ScryptScheme.firebaseStored(
                        hash: hash, salt: salt, saltSeparator: parameters.saltSeparator,
                        signerKey: parameters.signerKey, rounds: parameters.rounds,
                        memoryCost: parameters.memoryCost))
            }
            return ForeignAccount(
                source: "user \(user["localId"]?.text ?? String(index + 1))", email: user["email"]?.text ?? "",
                names: [user["displayName"]?.text], password: password,
                createdAt: user["createdAt"]?.text.flatMap(SourceTime.parse))
        }
    }
}

/// Ory Kratos's identity import JSON: an array of identities (or one), each with `traits`
/// (`email`; `username`, `name` as text or `{first, last}`) and
/// `credentials.password.config.hashed_password` in any form Kratos imports that a scheme here
/// verifies: bcrypt, Argon2, `$pbkdf2-…`, `$firescrypt$`, and two that Kratos spells its own
/// way and ``kratosHash(_:)`` rewrites: `$scrypt$ln=<N>` (N itself, not its logarithm) and
/// `$md5-crypt$` / `$sha256-crypt$` / `$sha512-crypt$` (crypt(3)'s `$1$`, `$5$`, `$6$`).
/// `created_at` is kept when present.
public struct KratosSource: ForeignSource {
    public static let name = "kratos"
    public init() {}

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        let bytes = try SourceProblem.contents(of: path, "Kratos")
        guard let document = SourceJSON.decode(bytes) else {
            throw SourceProblem.invalid(path, "Kratos", "it is not JSON", "JSON이 아닙니다")
        }
        let identities = document.elements.isEmpty ? [document] : document.elements
        return identities.enumerated().map { index, identity in
            let traits = identity["traits"]
            let name = traits?["name"]
            let hash = identity["credentials"]?["password"]?["config"]?["hashed_password"]?.text
            return ForeignAccount(
                source: "identity \(identity["id"]?.text ?? String(index + 1))",
                email: traits?["email"]?.text ?? "",
                names: [traits?["username"]?.text, name?.text, name?["first"]?.text],
                password: hash.map(Self.kratosHash)
                    ?? .none(.noPassword("it has no hashed_password (a provider or passkey sign-in)")),
                createdAt: identity["created_at"]?.text.flatMap(SourceTime.parse))
        }
    }
}

extension KratosSource {
    /// Kratos's crypt(3) prefixes and the ones crypt(3) itself writes.
    private static let cryptPrefixes = ["$md5-crypt$": "$1$", "$sha256-crypt$": "$5$", "$sha512-crypt$": "$6$"]

    /// `hash` as Kratos compares it, in the form the schemes here read: Kratos's crypt prefixes
    /// become crypt(3)'s, and its scrypt `ln` — N itself, as Kratos hands it to Go's
    /// `scrypt.Key` — becomes log₂ N. Anything else is kept as written.
    static func kratosHash(_ hash: String) -> ForeignAccount.Password {
        if let (kratos, crypt) = cryptPrefixes.first(where: { hash.hasPrefix($0.key) }) {
            return .hash(crypt + hash.dropFirst(kratos.count))
        }
        guard hash.hasPrefix("$scrypt$ln=") else { return .hash(hash) }
        let rest = hash.dropFirst("$scrypt$ln=".count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits), n > 1, n & (n - 1) == 0 else {
            return .none(.unusableHash(.malformed("Kratos's scrypt ln is N, which must be a power of two")))
        }
        return .hash("$scrypt$ln=\(n.trailingZeroBitCount)" + rest.dropFirst(digits.count))
    }
}

/// Keycloak's realm export (`kc.sh export --realm NAME`, the realm file or a
/// `NAME-users-N.json` file): each user's `password` credential, PBKDF2 with SHA-1, SHA-256
/// or SHA-512 (`secretData` holds the hash and salt, `credentialData` the algorithm and
/// rounds), becomes the PBKDF2 hash it is. The nickname comes from `username`, then
/// `firstName`; `createdTimestamp` is kept.
public struct KeycloakSource: ForeignSource {
    public static let name = "keycloak"
    public init() {}

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        let bytes = try SourceProblem.contents(of: path, "Keycloak")
        guard let users = SourceJSON.decode(bytes)?["users"] else {
            throw SourceProblem.invalid(path, "Keycloak", "it has no \"users\" array", "\"users\" 배열이 없습니다")
        }
        return users.elements.enumerated().map { index, user in
            ForeignAccount(
                source: "user \(user["username"]?.text ?? String(index + 1))", email: user["email"]?.text ?? "",
                names: [user["username"]?.text, user["firstName"]?.text], password: Self.password(user),
                createdAt: user["createdTimestamp"]?.text.flatMap(SourceTime.parse))
        }
    }

    /// The user's password credential as a PBKDF2 hash, or why there is none.
    static func password(_ user: SourceJSON) -> ForeignAccount.Password {
        guard let credential = user["credentials"]?.elements.first(where: { $0["type"]?.text == "password" }),
            let secret = credential["secretData"]?.embedded, let data = credential["credentialData"]?.embedded
        else { return .none(.noPassword("it has no password credential")) }
        let algorithms = ["pbkdf2": "sha1", "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512"]
        let name = data["algorithm"]?.text ?? ""
        guard let algorithm = algorithms[name] else {
            return .none(.noPassword("its credential's algorithm '\(name)' is not PBKDF2"))
        }
        guard let rounds = data["hashIterations"]?.text.flatMap({ Int($0) }), rounds > 0,
            let hash = secret["value"]?.text.flatMap(Base64.decode), !hash.isEmpty,
            let salt = secret["salt"]?.text.flatMap(Base64.decode)
        else { return .none(.noPassword("its credential is incomplete")) }
        return .hash(PBKDF2Scheme.stored(algorithm: algorithm, iterations: rounds, salt: salt, hash: hash))
    }
}

/// The records an import refused, as `--skip-invalid` wrote them (JSON Lines), after the
/// operator fixed them: each line's `email`, `nickname`, `password_hash` and `created_at_ms`;
/// the `source` and `reasons` it was written with are ignored.
public struct RefusedRecordsSource: ForeignSource {
    public static let name = "refused"
    public init() {}

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        let bytes = try SourceProblem.contents(of: path, "refused-records")
        var accounts: [ForeignAccount] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
            guard let record = SourceJSON.decode(Array(line)), case .object = record else {
                throw SourceProblem.invalid(
                    path, "refused-records", "line \(index + 1) is not a JSON object",
                    "\(index + 1)번째 줄이 JSON 객체가 아닙니다")
            }
            let hash = record["password_hash"]?.text ?? ""
            accounts.append(
                ForeignAccount(
                    source: "line \(index + 1)", email: record["email"]?.text ?? "",
                    names: [record["nickname"]?.text],
                    password: hash.isEmpty ? .none(.noPassword("the line has no password_hash")) : .hash(hash),
                    createdAt: record["created_at_ms"]?.text.flatMap(SourceTime.parse)))
        }
        return accounts
    }
}
