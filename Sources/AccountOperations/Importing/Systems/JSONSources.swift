public import AccountCore
import AccountCrypto

extension ForeignSource {
    /// A reader over the JSON records of `path` laid out as `layout`, each an object with every
    /// key of `requiring` (checked on the first: a file of another system is refused whole),
    /// mapped by `account`.
    func records(
        _ path: String, system: String, layout: JSONValues.Layout, requiring: [String],
        _ account: @escaping (_ record: SourceJSON, _ index: Int) -> ForeignAccount
    ) throws(AccountError) -> ForeignAccountReader {
        let problem = { (english: String, korean: String) in SourceProblem.invalid(path, system, english, korean) }
        let bytes = try SourceBytes(path: path) { problem($0, $0) }
        let values = JSONValues(bytes, layout: layout, problem: problem)
        var index = 0
        var first: SourceJSON? = try values.next()
        if let first {
            guard case .object(let members) = first else {
                throw problem("record 1 is not a JSON object", "1번째 기록이 JSON 객체가 아닙니다")
            }
            let missing = requiring.filter { members[$0] == nil }
            if !missing.isEmpty {
                let found = members.keys.sorted().prefix(12).joined(separator: ", ")
                throw problem(
                    "its records have no \(missing.joined(separator: ", ")) (the first has: \(found))",
                    "기록에 \(missing.joined(separator: ", "))이(가) 없습니다 (첫 기록에 있는 것: \(found))")
            }
        }
        let read = { () throws(AccountError) -> ForeignAccount? in
            let record: SourceJSON
            if let pending = first {
                record = pending
                first = nil
            } else {
                guard let next = try values.next() else { return nil }
                record = next
            }
            index += 1
            guard case .object = record else {
                throw problem("record \(index) is not a JSON object", "\(index)번째 기록이 JSON 객체가 아닙니다")
            }
            return account(record, index)
        }
        return ForeignAccountReader(size: bytes.size, position: { bytes.position }, read: read)
    }
}

extension SourceJSON {
    /// A JSON boolean as a flag (absent: false); a problem naming `key` for anything else.
    func flag(_ key: String, into account: inout ForeignAccount) -> Bool {
        switch self[key] {
        case nil, .null?: return false
        case .bool(let value)?: return value
        case let other?:
            let (flag, problem) = SourceFlag.read(other.text, column: key)
            if let problem { account.problems.append(problem) }
            return flag ?? false
        }
    }
}

/// Firebase Auth's `firebase auth:export users.json --format=json`. Each user's
/// `passwordHash` and `salt`, with the project's hash parameters (which the export does not
/// hold: the operator gives them), become Firebase's modified scrypt hash. The nickname comes
/// from `displayName`; `createdAt` is kept. A `disabled` user is blocked here; `emailVerified`
/// ones have a proven email (Firebase keeps no time: the import's).
public struct FirebaseSource: ForeignSource {
    public static let name = "firebase"
    let parameters: ForeignSourceOptions.FirebaseHash

    /// A reader for a project with these hash parameters.
    public init(parameters: ForeignSourceOptions.FirebaseHash) {
        self.parameters = parameters
    }

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        let parameters = parameters
        return try records(path, system: "Firebase Auth", layout: .member("users"), requiring: ["localId"]) {
            user, index in
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
            var account = ForeignAccount(
                source: "user \(user["localId"]?.text ?? String(index))", email: user["email"]?.text ?? "",
                names: [user["displayName"]?.text], password: password,
                createdAt: nil, sourceID: user["localId"]?.text)
            account.createdAt = account.time(user["createdAt"]?.text, "createdAt")
            if user.flag("disabled", into: &account) { account.blockedBecause = "Firebase marks it disabled" }
            if user.flag("emailVerified", into: &account) { account.emailVerifiedAt = now }
            return account
        }
    }
}

/// Ory Kratos's identity import JSON: an array of identities (or one, or JSON Lines), each
/// with `traits` (`email`; `username`, `name` as text or `{first, last}`) and
/// `credentials.password.config.hashed_password` in any form Kratos imports that a scheme here
/// verifies: bcrypt, Argon2, `$pbkdf2-…`, `$firescrypt$`, and two that Kratos spells its own
/// way and `kratosHash(_:)` rewrites: `$scrypt$ln=<N>` (N itself, not its logarithm) and
/// `$md5-crypt$` / `$sha256-crypt$` / `$sha512-crypt$` (crypt(3)'s `$1$`, `$5$`, `$6$`).
/// `created_at` is kept when present. An identity whose `state` is `inactive` is blocked here;
/// a `verifiable_addresses` entry for its email that is `verified` says when it was proven.
public struct KratosSource: ForeignSource {
    public static let name = "kratos"
    public init() {}

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        try records(path, system: "Kratos", layout: .records, requiring: ["traits"]) { identity, index in
            let traits = identity["traits"]
            let name = traits?["name"]
            let hash = identity["credentials"]?["password"]?["config"]?["hashed_password"]?.text
            let email = traits?["email"]?.text ?? ""
            var account = ForeignAccount(
                source: "identity \(identity["id"]?.text ?? String(index))", email: email,
                names: [traits?["username"]?.text, name?.text, name?["first"]?.text],
                password: hash.map(Self.kratosHash)
                    ?? .none(.noPassword("it has no hashed_password (a provider or passkey sign-in)")),
                createdAt: nil, sourceID: identity["id"]?.text)
            account.createdAt = account.time(identity["created_at"]?.text, "created_at")
            if identity["state"]?.text == "inactive" { account.blockedBecause = "Kratos marks it inactive" }
            let address = identity["verifiable_addresses"]?.elements.first { address in
                let verified = address["verified"] == .bool(true)
                return verified && address["value"]?.text?.lowercased() == email.lowercased()
            }
            if let address {
                account.emailVerifiedAt = address["verified_at"]?.text.flatMap(SourceTime.parse) ?? now
            }
            return account
        }
    }

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
/// `firstName`; `createdTimestamp` is kept. A user with `enabled` false is blocked here; one
/// whose `requiredActions` hold `UPDATE_PASSWORD`, or whose credential is `temporary`, has a
/// temporary password; `emailVerified` ones a proven email (at the import's time).
public struct KeycloakSource: ForeignSource {
    public static let name = "keycloak"
    public init() {}

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        try records(path, system: "Keycloak", layout: .member("users"), requiring: ["username"]) { user, index in
            var account = ForeignAccount(
                source: "user \(user["username"]?.text ?? String(index))", email: user["email"]?.text ?? "",
                names: [user["username"]?.text, user["firstName"]?.text], password: Self.password(user),
                createdAt: nil, sourceID: user["id"]?.text)
            account.createdAt = account.time(user["createdTimestamp"]?.text, "createdTimestamp")
            if user["enabled"] == .bool(false) { account.blockedBecause = "Keycloak marks it disabled" }
            let actions = user["requiredActions"]?.elements.compactMap(\.text) ?? []
            let credential = user["credentials"]?.elements.first { $0["type"]?.text == "password" }
            account.temporaryPassword =
                actions.contains("UPDATE_PASSWORD") || credential?["temporary"] == .bool(true)
            if user.flag("emailVerified", into: &account) { account.emailVerifiedAt = now }
            return account
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
/// operator fixed them: each line's `email`, `nickname`, `password_hash`, `created_at_ms`, the
/// source's `source_id` and `number`, and the account's state (`blocked`,
/// `must_change_password`, `email_verified_at_ms`); the `source` and `reasons` it was
/// written with are ignored.
public struct RefusedRecordsSource: ForeignSource {
    public static let name = "refused"
    public init() {}

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        try records(path, system: "refused-records", layout: .records, requiring: ["email"]) { record, index in
            let hash = record["password_hash"]?.text ?? ""
            var account = ForeignAccount(
                source: "line \(index)", email: record["email"]?.text ?? "", names: [record["nickname"]?.text],
                password: hash.isEmpty ? .none(.noPassword("the line has no password_hash")) : .hash(hash),
                createdAt: nil,
                number: record["number"]?.text.flatMap { Int($0) }, sourceID: record["source_id"]?.text)
            account.createdAt = account.time(record["created_at_ms"]?.text, "created_at_ms")
            if record.flag("blocked", into: &account) {
                account.blockedBecause = "it was blocked in its source when it was refused"
            }
            account.temporaryPassword = record.flag("must_change_password", into: &account)
            account.emailVerifiedAt = record["email_verified_at_ms"]?.text.flatMap(SourceTime.parse)
            return account
        }
    }
}
