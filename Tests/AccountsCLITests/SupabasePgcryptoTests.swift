import AccountTestSupport
import BackendTestSupport
import Foundation
import Testing

/// Supabase's users as Supabase keeps them: `auth.users` in a real PostgreSQL, passwords hashed
/// by pgcrypto's own `crypt(…, gen_salt('bf'))` (its `$2a$` form), exported with psql's
/// `\copy … csv header` as Supabase's migration guide does, then `accounts import --from
/// supabase` and a login with each old password. The committed fixture's hashes come from
/// Python's bcrypt; this proves the reading of the hashes the real system writes.
@Suite("Supabase's auth.users from a real PostgreSQL")
struct SupabasePgcryptoTests {
    static let password = "Tangerine-Kayak-42"

    /// Runs psql against the test server with `sql`; returns its output.
    static func psql(_ sql: String) throws -> String {
        let environment = PostgresTestServer.environment
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        let target =
            "host=\(environment["TEST_POSTGRES_HOST"] ?? "") port=\(environment["TEST_POSTGRES_PORT"] ?? "") "
            + "user=\(environment["TEST_POSTGRES_USER"] ?? "") dbname=\(environment["TEST_POSTGRES_DATABASE"] ?? "")"
        process.arguments = [target, "-v", "ON_ERROR_STOP=1", "-Atq", "-c", sql]
        process.environment = ["PGPASSWORD": environment["TEST_POSTGRES_PASSWORD"] ?? "", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PsqlFailed(message: problem) }
        return text
    }

    struct PsqlFailed: Error {
        let message: String
    }

    @Test(
        "pgcrypto's bcrypt hashes, exported by psql, import and log in; a banned user stays out",
        .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
    func pgcryptoHashes() async throws {
        let cli = try CLIRunner("supabase-pgcrypto")
        let schema = "auth_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let csv = cli.root + "/auth-users.csv"
        defer { _ = try? Self.psql("drop schema if exists \(schema) cascade") }
        _ = try Self.psql(
            """
            create extension if not exists pgcrypto;
            create schema \(schema);
            create table \(schema).users (
                instance_id uuid, id uuid primary key, aud varchar(255), role varchar(255),
                email varchar(255), encrypted_password varchar(255), email_confirmed_at timestamptz,
                created_at timestamptz, updated_at timestamptz, raw_app_meta_data jsonb,
                raw_user_meta_data jsonb, banned_until timestamptz, deleted_at timestamptz);
            insert into \(schema).users values
                ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                 'linus@example.com', crypt('\(Self.password)', gen_salt('bf', 10)), now(), now(), now(),
                 '{"provider": "email"}', '{"full_name": "Linus Torvalds"}', null, null),
                ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                 'ada.lovelace@example.com', crypt('\(Self.password)-2', gen_salt('bf', 6)), null, now(), now(),
                 '{"provider": "email"}', '{}', null, null),
                ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                 'banned@example.com', crypt('\(Self.password)', gen_salt('bf')), now(), now(), now(),
                 '{"provider": "email"}', '{}', now() + interval '10 years', null);
            """)
        let hashes = try Self.psql("select encrypted_password from \(schema).users").split(separator: "\n")
        #expect(
            hashes.count == 3 && hashes.allSatisfy { $0.hasPrefix("$2a$") }, "pgcrypto writes $2a$: \(hashes.count)")
        _ = try Self.psql("\\copy (select * from \(schema).users order by email) to '\(csv)' csv header")
        let store = ["--store", cli.root + "/accounts.sqlite"]
        let imported = try await cli.run(
            ["import", "--from", "supabase", "--input", csv, "--skip-invalid", cli.root + "/refused.jsonl", "--json"]
                + store)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try imported.json()["imported"] as? Int == 2)
        for (email, password) in [
            ("linus@example.com", Self.password), ("ada.lovelace@example.com", Self.password + "-2"),
        ] {
            let login = try await cli.run(["login", "--email", email, "--password-stdin"] + store, stdin: [password])
            #expect(login.status == 0, "\(email): \(login.stderr)")
            _ = try await cli.run(["logout"] + store)
        }
        let shown = try await cli.run(["users", "show", "linus@example.com", "--json"] + store).json()
        #expect(shown["email_verified_at_ms"] as? Int64 != nil, "email_confirmed_at came along")
        let banned = try await cli.run(
            ["login", "--email", "banned@example.com", "--password-stdin"] + store, stdin: [Self.password])
        #expect(banned.status != 0, "the banned user was let in")
    }
}
