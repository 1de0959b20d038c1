public import AccountCore
import AccountCrypto

/// Strapi's users-permissions users: the `up_users` table, from Strapi's SQLite database file
/// or as CSV or JSON (`\copy up_users to … csv header` from its PostgreSQL schema). Passwords
/// are bcrypt; the nickname comes from `username`.
public struct StrapiSource: ForeignSource {
    public static let name = "strapi"
    public init() {}

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        try SourceRows(path, system: "Strapi", table: "up_users").rows.enumerated().map { index, row in
            ForeignAccount(
                source: "user \(row.value("id") ?? String(index + 1))", email: row.value("email") ?? "",
                names: [row.value("username")],
                password: row.value("password").map(ForeignAccount.Password.hash)
                    ?? .none(.noPassword("it has no local password (a provider sign-in)")),
                createdAt: row.value("created_at", "createdAt").flatMap(SourceTime.parse),
                number: row.value("id").flatMap { Int($0) })
        }
    }
}

/// Django's users: `manage.py dumpdata auth.user` JSON, or the `auth_user` table of its
/// SQLite database (or CSV). `password` is kept as Django wrote it (`pbkdf2_sha256$…`,
/// `bcrypt_sha256$…`, `argon2$…`); one starting with `!` is Django's unusable password. The
/// nickname comes from `username`, then `first_name`.
public struct DjangoSource: ForeignSource {
    public static let name = "django"
    public init() {}

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        try SourceRows(path, system: "Django", table: "auth_user").rows.enumerated().map { index, row in
            let password = row.value("password") ?? ""
            return ForeignAccount(
                source: "user \(row.value("pk", "id") ?? String(index + 1))", email: row.value("email") ?? "",
                names: [row.value("username"), row.value("first_name")],
                password: password.isEmpty || password.hasPrefix("!")
                    ? .none(.noPassword("Django marks its password unusable")) : .hash(password),
                createdAt: row.value("date_joined").flatMap(SourceTime.parse),
                number: row.value("pk", "id").flatMap { Int($0) })
        }
    }
}

/// Supabase's `auth.users`, as CSV (`\copy auth.users to … csv header`) or a JSON array of its
/// rows. `encrypted_password` is bcrypt; the nickname comes from the metadata's `user_name`,
/// `full_name` or `name`.
public struct SupabaseSource: ForeignSource {
    public static let name = "supabase"
    public init() {}

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        try SourceRows(path, system: "Supabase", table: "users").rows.enumerated().map { index, row in
            let metadata = row.value("raw_user_meta_data").flatMap { SourceJSON.decode(Array($0.utf8)) }
            let password = row.value("encrypted_password") ?? ""
            return ForeignAccount(
                source: "user \(row.value("id") ?? String(index + 1))", email: row.value("email") ?? "",
                names: [metadata?["user_name"]?.text, metadata?["full_name"]?.text, metadata?["name"]?.text],
                password: password.isEmpty
                    ? .none(.noPassword("it has no password (a provider or magic-link sign-in)")) : .hash(password),
                createdAt: row.value("created_at").flatMap(SourceTime.parse))
        }
    }
}

/// A Rails app's Devise users table, as CSV (or JSON rows, or a SQLite database's `users`).
/// `encrypted_password` is bcrypt, over the password and the app's `config.pepper` when it set
/// one; the nickname comes from `username`, `name`, `nickname` or `first_name` when the table
/// has one.
public struct DeviseSource: ForeignSource {
    public static let name = "devise"
    let pepper: [UInt8]?

    /// A reader for an app with `pepper` (nil: none).
    public init(pepper: [UInt8]? = nil) {
        self.pepper = pepper
    }

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        try SourceRows(path, system: "Devise", table: "users").rows.enumerated().map { index, row in
            ForeignAccount(
                source: "user \(row.value("id") ?? String(index + 1))", email: row.value("email") ?? "",
                names: [row.value("username"), row.value("name"), row.value("nickname"), row.value("first_name")],
                password: row.value("encrypted_password").map { bcrypt in
                    .hash(pepper.map { PepperedBcryptScheme.stored(bcrypt: bcrypt, pepper: $0) } ?? bcrypt)
                } ?? .none(.noPassword("it has no encrypted_password")),
                createdAt: row.value("created_at").flatMap(SourceTime.parse))
        }
    }
}

/// ASP.NET Core Identity's `AspNetUsers`, as CSV (or JSON rows, or a SQLite database). Its
/// `PasswordHash` (a base64 blob, format V2 or V3) becomes the PBKDF2 hash it holds, bit for
/// bit; the nickname comes from `UserName`. Identity keeps no creation time.
public struct AspNetIdentitySource: ForeignSource {
    public static let name = "aspnet"
    public init() {}

    public func accounts(in path: String) throws(AccountError) -> [ForeignAccount] {
        try SourceRows(path, system: "ASP.NET Identity", table: "AspNetUsers").rows.enumerated().map { index, row in
            ForeignAccount(
                source: "user \(row.value("Id") ?? String(index + 1))", email: row.value("Email") ?? "",
                names: [row.value("UserName")], password: Self.password(row.value("PasswordHash")), createdAt: nil)
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
