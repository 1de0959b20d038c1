import AccountCore
import AccountCrypto
import AccountOperations
import AccountTestSupport
import Foundation
import MemoryBackend
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `accounts import --from NAME` over one small export of each system, made by that system's
/// own code where it runs here (scripts/fixtures/foreign-exports.py). SQLite is the store: that
/// every backend keeps legacy hashes byte for byte is LegacyHashTests' and TransferTests' part.
@Suite("Importing other systems' users")
struct ForeignImportTests {
    struct Expected: Decodable {
        struct User: Decodable {
            let email: String
            let nickname: String
            let password: String
            let scheme: String
            let createdAtMs: Int64?
        }
        /// The `--from` name.
        let system: String
        /// What else the import takes (Firebase's hash parameters, Devise's pepper file, which
        /// is named relative to the fixtures' folder).
        let arguments: [String]
        let imported: [User]
        let refused: [String]
        /// Users the system keeps from signing in: refused unless `--keep-blocked`.
        let blocked: [Blocked]
        /// Emails that come with a temporary password, and with a proven email.
        let temporary: [String]
        let verified: [String]

        struct Blocked: Decodable {
            let source: String
            let email: String
            let password: String
        }
    }

    /// What a temporary password is replaced with at the first login.
    static let renewed = "Renewed-Orchid-Basalt-61"

    static let folder = PackageFiles.path("Tests/AccountOperationsTests/Fixtures/Imports")
    static let expected: [String: Expected] = {
        let data = FileManager.default.contents(atPath: folder + "/expected.json") ?? Data()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (try? decoder.decode([String: Expected].self, from: data)) ?? [:]
    }()

    @Test("every system --from reads has a fixture with its expectation")
    func coverage() {
        #expect(Set(Self.expected.values.map(\.system)) == Set(ForeignSources.names).subtracting(["refused"]))
    }

    @Test(
        "dry run, refusal, --skip-invalid, then each user signs in with the old password and moves to Argon2id",
        arguments: expected.keys.sorted())
    func imports(_ file: String) async throws {
        let expected = try #require(Self.expected[file])
        let system = expected.system
        let cli = try CLIRunner("import-\(system)")
        let store = ["--store", cli.root + "/accounts.sqlite"]
        let arguments = expected.arguments.map { $0.hasSuffix(".txt") ? Self.folder + "/" + $0 : $0 }
        let command = ["import", "--from", system, "--input", Self.folder + "/" + file] + store + arguments
        let dryRun = try await cli.run(command + ["--dry-run", "--json"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let report = try dryRun.json()
        #expect(report["would_import"] as? Int == expected.imported.count)
        let refused = (report["refused"] as? [[String: Any]] ?? []).compactMap { $0["source"] as? String }
        #expect(Set(refused) == Set(expected.refused + expected.blocked.map(\.source)), "\(refused)")
        #expect(refused.count == expected.refused.count + expected.blocked.count)
        #expect(!FileManager.default.fileExists(atPath: cli.root + "/accounts.sqlite"), "a dry run writes nothing")

        let strict = try await cli.run(command + ["--json"])
        #expect(strict.errorCode == "invalid_export", "\(strict.stdout)")
        #expect(strict.stdout.contains(refused[0]) && strict.stdout.contains("nothing was written"))
        let empty = try await cli.run(["users", "count"] + store)
        #expect(empty.status != 0 || empty.stdout.hasPrefix("0"), "a refused import stores nobody: \(empty.stdout)")

        let refusedFile = cli.root + "/refused.jsonl"
        let imported = try await cli.run(command + ["--skip-invalid", refusedFile, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try imported.json()["imported"] as? Int == expected.imported.count)
        let refusedLines = try String(contentsOfFile: refusedFile, encoding: .utf8).split(separator: "\n")
        #expect(refusedLines.count == expected.refused.count + expected.blocked.count)
        #expect(Self.permissions(refusedFile) == 0o600, "it holds hashes: private")

        // An Argon2id hash made elsewhere is of the current scheme: nothing waits for its upgrade
        // in doctor's count, though its parameters are upgraded at the first login all the same.
        let schemes = Dictionary(
            expected.imported.filter { $0.scheme != PasswordSchemes.currentName }.map { ($0.scheme, 1) },
            uniquingKeysWith: +)
        let before = try await cli.run(["doctor", "--json"] + store)
        #expect(try before.json()["legacy_password_schemes"] as? [String: Int] == schemes, "\(before.stdout)")
        for user in expected.imported {
            let shown = try await cli.run(["users", "show", user.email, "--json"] + store)
            let details = try shown.json()
            #expect(details["password_scheme"] as? String == user.scheme, "\(user.email): \(shown.stdout)")
            #expect((details["user"] as? [String: Any])?["nickname"] as? String == user.nickname)
            if let created = user.createdAtMs {
                #expect(
                    (details["user"] as? [String: Any])?["created_at_ms"] as? Int64 == created, "creation time kept")
            }
            let wrong = try await cli.run(
                ["login", "--email", user.email, "--password-stdin"] + store, stdin: [user.password + "x"])
            #expect(wrong.status == 5, "\(user.email): \(wrong.stderr)")
            // A temporary password is replaced at the first login: the new one comes on the next lines.
            let temporary = expected.temporary.contains(user.email)
            let login = try await cli.run(
                ["login", "--email", user.email, "--password-stdin"] + store,
                stdin: temporary ? [user.password, Self.renewed, Self.renewed] : [user.password])
            #expect(login.status == 0, "\(system) \(user.email): \(login.stderr)")
            let proven = try await cli.run(["users", "show", user.email, "--json"] + store).json()
            #expect(
                (proven["email_verified_at_ms"] as? Int64 != nil) == expected.verified.contains(user.email),
                "\(user.email): \(proven)")
            #expect(proven["must_change_password"] as? Bool == false, "\(user.email)")
            let after = try await cli.run(["users", "show", user.email, "--json"] + store)
            #expect(try after.json()["password_scheme"] as? String == "argon2id")
            _ = try await cli.run(["logout"] + store)
        }
        let after = try await cli.run(["doctor"] + store)
        #expect(after.status == 0 && !after.stdout.contains("still on"), "every user moved on: \(after.stdout)")

        // With --keep-blocked, the users the system kept out come in, and stay out.
        guard !expected.blocked.isEmpty else { return }
        let kept = ["--store", cli.root + "/kept.sqlite"]
        let keeping = try await cli.run(
            [
                "import", "--from", system, "--input", Self.folder + "/" + file, "--keep-blocked", "--skip-invalid",
                cli.root + "/kept-refused.jsonl", "--json",
            ] + kept + arguments)
        #expect(try keeping.json()["imported"] as? Int == expected.imported.count + expected.blocked.count)
        for user in expected.blocked {
            let shown = try await cli.run(["users", "show", user.email, "--json"] + kept).json()
            #expect(shown["blocked"] as? Bool == true, "\(user.email): \(shown)")
            let login = try await cli.run(
                ["login", "--email", user.email, "--password-stdin", "--json"] + kept, stdin: [user.password])
            #expect(login.errorCode == "account_blocked", "\(system) \(user.email): \(login.stdout)")
        }
    }

    @Test("Firebase's parameters come from the console's block in a file; one missing is named, nothing written")
    func firebaseHashConfig() async throws {
        let cli = try CLIRunner("import-firebase-config")
        let config = cli.root + "/hash-config.txt"
        let full = try String(contentsOfFile: Self.folder + "/firebase-hash-config.txt", encoding: .utf8)
        try full.split(separator: "\n").filter { !$0.contains("rounds") }.joined(separator: "\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let store = cli.root + "/accounts.sqlite"
        let input = Self.folder + "/firebase.json"
        let missing = try await cli.run(["import", "--from", "firebase", "--input", input, "--store", store])
        #expect(missing.status != 0 && missing.stderr.contains("--firebase-hash-config"), "\(missing.stderr)")
        let partial = try await cli.run(
            ["import", "--from", "firebase", "--input", input, "--store", store, "--firebase-hash-config", config])
        #expect(partial.status != 0 && partial.stderr.contains("rounds is missing"), "\(partial.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store), "nothing was written")
    }

    @Test("--check-login verifies a known password against the file before writing; a wrong parameter writes nothing")
    func checkLogin() async throws {
        let cli = try CLIRunner("import-check-login")
        let user = try #require(Self.expected["firebase.json"]?.imported.first)
        let input = Self.folder + "/firebase.json"
        let config = Self.folder + "/firebase-hash-config.txt"
        let store = cli.root + "/accounts.sqlite"
        // The project's key with one character changed: every hash would fail to verify.
        let wrongConfig = cli.root + "/wrong-config.txt"
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try text.replacingOccurrences(of: "base64_signer_key: jx", with: "base64_signer_key: kx")
            .write(toFile: wrongConfig, atomically: true, encoding: .utf8)
        let command = ["import", "--from", "firebase", "--input", input, "--store", store, "--keep-blocked"]
        let wrong = try await cli.run(
            command + ["--firebase-hash-config", wrongConfig, "--check-login", user.email, "--json"],
            stdin: [user.password])
        #expect(wrong.status == 5 && wrong.errorCode == "login_check_failed", "\(wrong.stdout)")
        #expect(wrong.stdout.contains("--firebase-hash-config") && !wrong.stdout.contains(user.password))
        #expect(!FileManager.default.fileExists(atPath: store), "nothing was written")
        let unknown = try await cli.run(
            command + ["--firebase-hash-config", config, "--check-login", "nobody77@example.com"],
            stdin: [user.password])
        #expect(unknown.status == 9, "\(unknown.stderr)")
        let idMap = cli.root + "/ids.jsonl"
        let right = try await cli.run(
            command + [
                "--firebase-hash-config", config, "--check-login", user.email.uppercased(), "--skip-invalid",
                cli.root + "/refused.jsonl", "--id-map", idMap,
            ],
            stdin: [user.password])
        #expect(right.status == 0 && right.stdout.contains("verifies against the file's hash"), "\(right.stderr)")
        let lines = try String(contentsOfFile: idMap, encoding: .utf8).split(separator: "\n")
        let expected = try #require(Self.expected["firebase.json"])
        #expect(lines.count == expected.imported.count + expected.blocked.count)
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["source_id"] as? String == "aB3dE5" && (first["number"] as? Int ?? 0) > 0, "\(first)")
        #expect(Self.permissions(idMap) == 0o600, "it names every user: private")
    }

    /// The permission bits of `path`'s file.
    static func permissions(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    @Test("a Devise pepper file saved with Windows line ends is the same pepper; one of two lines is refused")
    func pepperLineEnds() async throws {
        let cli = try CLIRunner("import-pepper-crlf")
        let pepper = try String(contentsOfFile: Self.folder + "/devise-pepper.txt", encoding: .utf8)
        let crlf = cli.root + "/pepper-crlf.txt"
        try (pepper.trimmingCharacters(in: .newlines) + "\r\n").write(toFile: crlf, atomically: true, encoding: .utf8)
        let store = ["--store", cli.root + "/accounts.sqlite"]
        let imported = try await cli.run(
            [
                "import", "--from", "devise", "--input", Self.folder + "/devise-pepper.csv", "--devise-pepper-file",
                crlf,
                "--skip-invalid", cli.root + "/refused.jsonl",
            ] + store)
        #expect(imported.status == 0, "\(imported.stderr)")
        let user = try #require(Self.expected["devise-pepper.csv"]?.imported.first)
        let login = try await cli.run(
            ["login", "--email", user.email, "--password-stdin"] + store, stdin: [user.password])
        #expect(login.status == 0, "the pepper without its \\r verifies: \(login.stderr)")
        let twoLines = cli.root + "/pepper-two-lines.txt"
        try "first\r\nsecond\r\n".write(toFile: twoLines, atomically: true, encoding: .utf8)
        let refused = try await cli.run(
            [
                "import", "--from", "devise", "--input", Self.folder + "/devise-pepper.csv", "--devise-pepper-file",
                twoLines, "--dry-run",
            ] + store)
        #expect(refused.status != 0 && refused.stderr.contains("more than one line"), "\(refused.stderr)")
    }

    @Test("this store's own export is held to the same rules: a bad record is named, then fixed and imported")
    func ownExportRules() async throws {
        let cli = try CLIRunner("import-own-rules")
        // Hand-made, the trailer recomputed: what the issue's reporter imported with exit 0.
        let source = MemoryUserRepository()
        let random = SeededRandom()
        let records = [
            ("A@b", "ok nick"), ("leesoon7@example.com", "\u{1B}[31mRED\u{1B}[0m"),
            ("good.user@example.com", "좋은 사용자"),
        ]
        for (email, nickname) in records {
            try await source.createUser(
                UserRecord(
                    id: .random(using: random), email: email, nickname: nickname,
                    passwordHash: "$2b$04$" + String(repeating: "a", count: 53),
                    createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_000)), initialSession: nil)
        }
        var lines: [String] = []
        _ = try await StoreExporter.export(
            source, sourceBackend: "memory", withSessions: false, now: Timestamp(millisecondsSince1970: 0)
        ) { lines.append($0) }
        let file = cli.root + "/hand-made.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let store = ["--store", cli.root + "/accounts.sqlite"]

        let refused = try await cli.run(["import", "--input", file, "--json"] + store)
        #expect(refused.errorCode == "invalid_export")
        #expect(refused.stdout.contains("line 2") && refused.stdout.contains("The domain needs at least two labels"))
        #expect(!FileManager.default.fileExists(atPath: cli.root + "/accounts.sqlite"), "nothing was written")

        let dryRun = try await cli.run(["import", "--input", file, "--dry-run"] + store)
        #expect(dryRun.status == 0 && dryRun.stdout.contains("would import 1 user and refuse 2"), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("line 4") && dryRun.stdout.contains("control or format characters"))
        #expect(!dryRun.stdout.contains("\u{1B}"), "the escape codes never reach the terminal")

        let rejects = cli.root + "/refused.jsonl"
        let kept = try await cli.run(["import", "--input", file, "--skip-invalid", rejects] + store)
        #expect(kept.status == 0 && kept.stdout.contains("Imported 1 user"), "\(kept.stderr)")
        // The operator fixes both records in the file and brings them in.
        var fixed = try String(contentsOfFile: rejects, encoding: .utf8)
        fixed = fixed.replacingOccurrences(of: #""email":"A@b""#, with: #""email":"a.user@b.example""#)
        fixed = fixed.replacingOccurrences(of: #"\u001b[31mRED\u001b[0m"#, with: "RED")
        let again = try await cli.run(
            ["import", "--from", "refused", "--merge", "--input", rejects + ".fixed"] + store)
        #expect(again.status != 0, "no such file yet")
        try fixed.write(toFile: rejects + ".fixed", atomically: true, encoding: .utf8)
        let merged = try await cli.run(
            ["import", "--from", "refused", "--merge", "--input", rejects + ".fixed", "--json"] + store)
        #expect(try merged.json()["imported"] as? Int == 2, "\(merged.stdout)")
        let shown = try await cli.run(["users", "show", "leesoon7@example.com", "--json"] + store)
        #expect((try shown.json()["user"] as? [String: Any])?["nickname"] as? String == "RED")
        let doctor = try await cli.run(["doctor"] + store)
        #expect(doctor.status == 0, "every stored record meets the rules: \(doctor.stdout)")
    }

    @Test("the refused file's advice says which records an edit mends, and that one without a password no edit can")
    func refusedFileAdvice() async throws {
        let cli = try CLIRunner("import-refused-advice")
        let csv = cli.root + "/devise.csv"
        let hash = "$2b$11$G8ToNGvucFoqX33K6JHlNOgUBMD93lw1gjo6YTehniDQU8O7mAJBO"
        try """
        id,email,encrypted_password,username,created_at,updated_at
        1,matz@example.jp,\(hash),matz,2023-07-01T12:00:00.000Z,2023-07-01T12:00:00.000Z
        2,x@example.jp,\(hash),x,2023-07-02T12:00:00Z,2023-07-02T12:00:00Z
        3,nopass@example.jp,,nopass,2023-07-03T12:00:00Z,2023-07-03T12:00:00Z

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        let refused = cli.root + "/refused.jsonl"
        let result = try await cli.run(
            [
                "import", "--from", "devise", "--input", csv, "--skip-invalid", refused, "--store",
                cli.root + "/a.sqlite",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("fix the 1 an edit mends, then import it with --from refused --merge"),
            "\(result.stdout)")
        #expect(
            result.stdout.contains("1 has no password this store can verify, which no edit of the file gives"),
            "\(result.stdout)")
    }
}
