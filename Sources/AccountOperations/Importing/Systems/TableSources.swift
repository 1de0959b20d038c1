public import AccountCore
import AccountCrypto

/// A source whose users are the rows of one table.
extension ForeignSource {
    /// A reader over `table`'s rows, each mapped by `account`.
    func rows(
        _ table: SourceTable, _ account: @escaping (_ row: [String: String?], _ index: Int) -> ForeignAccount
    ) -> ForeignAccountReader {
        var index = 0
        let read = { () throws(AccountError) -> ForeignAccount? in
            guard let row = try table.next() else { return nil }
            index += 1
            return account(row, index)
        }
        return ForeignAccountReader(size: table.size, position: { table.position }, read: read)
    }
}

/// Strapi's users-permissions users: the `up_users` table, from Strapi's SQLite database file
/// or as CSV, a JSON array or JSON Lines (`\copy up_users to … csv header` from its PostgreSQL
/// schema). Passwords are bcrypt; the nickname comes from `username`. `blocked` users are
/// blocked here; `confirmed` ones have a proven email (Strapi keeps no time: the import's).
public struct StrapiSource: ForeignSource {
    public static let name = "strapi"
    public init() {}

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        let table = try SourceTable(
            path, system: "Strapi", table: "up_users", requiring: [["email"], ["password"], ["username"]])
        return rows(table) { row, index in
            var account = ForeignAccount(
                source: "user \(row.value("id") ?? String(index))", email: row.value("email") ?? "",
                names: [row.value("username")],
                password: row.value("password").map(ForeignAccount.Password.hash)
                    ?? .none(.noPassword("it has no local password (a provider sign-in)")),
                createdAt: nil,
                number: row.value("id").flatMap { Int($0) }, sourceID: row.value("id", "document_id"))
            account.createdAt = account.time(row.set("created_at", "createdAt"), "created_at")
            if SourceFlag.read(row, "blocked", into: &account) { account.blockedBecause = "Strapi marks it blocked" }
            if SourceFlag.read(row, "confirmed", into: &account) { account.emailVerifiedAt = now }
            return account
        }
    }
}

/// Django's users: `manage.py dumpdata auth.user` JSON (or `--format jsonl`), or the
/// `auth_user` table of its SQLite database (or CSV). `password` is kept as Django wrote it
/// (`pbkdf2_sha256$…`, `bcrypt_sha256$…`, `argon2$…`, `scrypt$…`); one starting with `!` is
/// Django's unusable password. The nickname comes from `username`, then `first_name`. A user
/// with `is_active` false is blocked here.
public struct DjangoSource: ForeignSource {
    public static let name = "django"
    public init() {}

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        let table = try SourceTable(
            path, system: "Django", table: "auth_user", requiring: [["email"], ["password"], ["username"]],
            model: "auth.user")
        return rows(table) { row, index in
            let password = row.value("password") ?? ""
            let id = row.value("pk", "id")
            var account = ForeignAccount(
                source: "user \(id ?? String(index))", email: row.value("email") ?? "",
                names: [row.value("username"), row.value("first_name")],
                password: password.isEmpty || password.hasPrefix("!")
                    ? .none(.noPassword("Django marks its password unusable")) : .hash(password),
                createdAt: nil,
                number: id.flatMap { Int($0) }, sourceID: id)
            account.createdAt = account.time(row.set("date_joined"), "date_joined")
            let (active, problem) = SourceFlag.read(row.value("is_active"), column: "is_active")
            if let problem { account.problems.append(problem) }
            if active == false { account.blockedBecause = "Django marks it inactive (is_active is false)" }
            return account
        }
    }
}

/// Supabase's `auth.users`, as CSV (`\copy auth.users to … csv header`), a JSON array or JSON
/// Lines of its rows. `encrypted_password` is bcrypt; the nickname comes from the metadata's
/// `user_name`, `full_name` or `name`. A user banned until after the import, or deleted, is
/// blocked here; `email_confirmed_at` is when its email was proven.
public struct SupabaseSource: ForeignSource {
    public static let name = "supabase"
    public init() {}

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        let table = try SourceTable(
            path, system: "Supabase", table: "users", requiring: [["id"], ["email"], ["encrypted_password"]])
        return rows(table) { row, index in
            let metadata = row.value("raw_user_meta_data").flatMap { SourceJSON.decode(Array($0.utf8)) }
            let password = row.value("encrypted_password") ?? ""
            var account = ForeignAccount(
                source: "user \(row.value("id") ?? String(index))", email: row.value("email") ?? "",
                names: [metadata?["user_name"]?.text, metadata?["full_name"]?.text, metadata?["name"]?.text],
                password: password.isEmpty
                    ? .none(.noPassword("it has no password (a provider or magic-link sign-in)")) : .hash(password),
                createdAt: nil, sourceID: row.value("id"))
            account.createdAt = account.time(row.set("created_at"), "created_at")
            if row.set("deleted_at") != nil {
                account.blockedBecause = "Supabase marks it deleted (deleted_at)"
            } else if let banned = row.set("banned_until") {
                if let until = SourceTime.parse(banned) {
                    if until > now { account.blockedBecause = "Supabase bans it until \(until.iso8601)" }
                } else {
                    account.problems.append(.unreadableTime("banned_until", banned))
                }
            }
            if let confirmed = row.set("email_confirmed_at", "confirmed_at") {
                if let time = SourceTime.parse(confirmed) {
                    account.emailVerifiedAt = time
                } else {
                    account.problems.append(.unreadableTime("email_confirmed_at", confirmed))
                }
            }
            return account
        }
    }
}

/// A Rails app's Devise users table, as CSV, a JSON array or JSON Lines, or an SQLite
/// database's `users`. `encrypted_password` is bcrypt, over the password and the app's
/// `config.pepper` when it set one; the nickname comes from `username`, `name`, `nickname` or
/// `first_name` when the table has one. A user Devise's lockable locked (`locked_at`) is
/// blocked here; confirmable's `confirmed_at` is when its email was proven.
public struct DeviseSource: ForeignSource {
    public static let name = "devise"
    let pepper: [UInt8]?

    /// A reader for an app with `pepper` (nil: none).
    public init(pepper: [UInt8]? = nil) {
        self.pepper = pepper
    }

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        let table = try SourceTable(
            path, system: "Devise", table: "users", requiring: [["email"], ["encrypted_password"]])
        let pepper = pepper
        return rows(table) { row, index in
            let id = row.value("id")
            var account = ForeignAccount(
                source: "user \(id ?? String(index))", email: row.value("email") ?? "",
                names: [row.value("username"), row.value("name"), row.value("nickname"), row.value("first_name")],
                password: row.value("encrypted_password").flatMap { $0.isEmpty ? nil : $0 }.map { bcrypt in
                    .hash(pepper.map { PepperedBcryptScheme.stored(bcrypt: bcrypt, pepper: $0) } ?? bcrypt)
                } ?? .none(.noPassword("its encrypted_password is empty")),
                createdAt: nil, number: id.flatMap { Int($0) },
                sourceID: id)
            account.createdAt = account.time(row.set("created_at"), "created_at")
            if row.set("locked_at") != nil { account.blockedBecause = "Devise locked it (locked_at)" }
            if let confirmed = row.set("confirmed_at") {
                if let time = SourceTime.parse(confirmed) {
                    account.emailVerifiedAt = time
                } else {
                    account.problems.append(.unreadableTime("confirmed_at", confirmed))
                }
            }
            return account
        }
    }
}

/// ASP.NET Core Identity's `AspNetUsers`, as CSV, a JSON array or JSON Lines, or an SQLite
/// database. Its `PasswordHash` (a base64 blob, format V2 or V3) becomes the PBKDF2 hash it
/// holds, bit for bit; the nickname comes from `UserName`. Identity keeps no creation time. A
/// user locked out past the import (`LockoutEnabled` and `LockoutEnd`) is blocked here;
/// `EmailConfirmed` ones have a proven email (at the import's time: Identity keeps none).
public struct AspNetIdentitySource: ForeignSource {
    public static let name = "aspnet"
    public init() {}

    public func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader {
        let table = try SourceTable(
            path, system: "ASP.NET Identity", table: "AspNetUsers", requiring: [["Id"], ["Email"], ["PasswordHash"]])
        return rows(table) { row, index in
            var account = ForeignAccount(
                source: "user \(row.value("Id") ?? String(index))", email: row.value("Email") ?? "",
                names: [row.value("UserName")], password: Self.password(row.value("PasswordHash")), createdAt: nil,
                sourceID: row.value("Id"))
            let lockoutEnabled = SourceFlag.read(row, "LockoutEnabled", into: &account)
            if lockoutEnabled, let end = row.set("LockoutEnd") {
                if let until = SourceTime.parse(end) {
                    if until > now { account.blockedBecause = "ASP.NET Identity locks it out until \(until.iso8601)" }
                } else {
                    account.problems.append(.unreadableTime("LockoutEnd", end))
                }
            }
            if SourceFlag.read(row, "EmailConfirmed", into: &account) { account.emailVerifiedAt = now }
            return account
        }
    }

    /// An Identity `PasswordHash` in the PBKDF2 form, or why it cannot be one.
    static func password(_ blob: String?) -> ForeignAccount.Password {
        guard let blob, !blob.isEmpty else { return .none(.noPassword("it has no PasswordHash (an external login)")) }
        guard let bytes = Base64.decode(blob), let format = bytes.first else {
            return .none(.noPassword("its PasswordHash is not base64"))
        }
        func bigEndian(_ at: Int) -> Int? {
            guard bytes.count >= at + 4 else { return nil }
            return bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        switch format {
        case 0x00 where bytes.count == 49:
            // V2: PBKDF2-HMAC-SHA1, 1000 rounds, 16-byte salt, 32-byte subkey.
            return .hash(
                PBKDF2Scheme.stored(
                    algorithm: "sha1", iterations: 1000, salt: Array(bytes[1..<17]), hash: Array(bytes[17...])))
        case 0x01:
            // V3: PRF (0 SHA-1, 1 SHA-256, 2 SHA-512), rounds, salt length, salt, subkey.
            let algorithms = [0: "sha1", 1: "sha256", 2: "sha512"]
            guard let prf = bigEndian(1), let algorithm = algorithms[prf], let rounds = bigEndian(5), rounds > 0,
                let saltLength = bigEndian(9), saltLength >= 16, bytes.count >= 13 + saltLength + 16
            else { return .none(.noPassword("its PasswordHash is not a V2 or V3 Identity hash")) }
            return .hash(
                PBKDF2Scheme.stored(
                    algorithm: algorithm, iterations: rounds, salt: Array(bytes[13..<13 + saltLength]),
                    hash: Array(bytes[(13 + saltLength)...])))
        default:
            return .none(.noPassword("its PasswordHash is not a V2 or V3 Identity hash"))
        }
    }
}
