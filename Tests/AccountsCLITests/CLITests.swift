import AccountBackendKit
import AccountConformance
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// The `accounts` binary from the outside: output, JSON, exit codes, files.
@Suite("accounts CLI")
struct CLITests {
    let password = "Tangerine-Kayak-42"
    let newPassword = "Quokka-Lantern-77"

    @Test("the whole lifecycle: signup, start, logout, login, whoami, passwd, withdraw")
    func lifecycle() async throws {
        let cli = try CLIRunner("lifecycle")
        let guest = try await cli.run(["start"])
        #expect(guest.status == 0 && guest.stdout.contains("You are not signed in."))
        #expect(guest.stdout.contains("accounts signup --email"))

        let signup = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        #expect(signup.status == 0)
        #expect(signup.stdout == "Welcome, 이순신.\n")
        #expect(try await cli.run(["start"]).stdout == "Welcome, 이순신.\n")
        #expect(try await cli.run(["start", "--lang", "ko"]).stdout == "이순신 님 환영합니다.\n")

        #expect(try await cli.run(["logout"]).stdout == "Logged out.\n")
        #expect(try await cli.run(["start"]).stdout.contains("You are not signed in."))
        let whoamiGuest = try await cli.run(["whoami"])
        #expect(whoamiGuest.status == 6 && whoamiGuest.stderr.contains("not signed in"))

        let login = try await cli.run(
            ["login", "--email", "LEESOON7@example.com", "--password-stdin"], stdin: [password])
        #expect(login.status == 0, "an address in capitals finds its account: \(login.stderr)")
        #expect(try await cli.run(["logout"]).stdout == "Logged out.\n")
        let login2 = try await cli.run(
            ["login", "--email", "leesoon7@EXAMPLE.com", "--password-stdin", "--remember"], stdin: [password])
        #expect(login2.status == 0 && login2.stdout == "Welcome, 이순신.\n")
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.stdout.contains("이순신") && whoami.stdout.contains("leesoon7@example.com"))

        let passwd = try await cli.run(["passwd", "--password-stdin"], stdin: [password, newPassword, newPassword])
        #expect(passwd.status == 0 && passwd.stdout.contains("Password changed"))
        let oldLogin = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin"], stdin: [password])
        #expect(oldLogin.status == 5)

        let withdraw = try await cli.run(["withdraw", "--yes", "--password-stdin"], stdin: [newPassword])
        #expect(withdraw.status == 0 && withdraw.stdout.contains("leesoon7@example.com"))
        #expect(try await cli.run(["start"]).stdout.contains("You are not signed in."))
        #expect(!FileManager.default.fileExists(atPath: cli.sessionPath), "withdraw forgets the session")
        let again = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "돌아온", "--password-stdin"],
            stdin: [password, password])
        #expect(again.status == 0, "the email is free after withdrawal")
    }

    @Test("a wrong password in passwd and withdraw is wrong_password, without mentioning an email")
    func wrongPasswordWithoutEmail() async throws {
        let cli = try CLIRunner("wrong-password")
        try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        let passwd = try await cli.run(
            ["passwd", "--password-stdin"], stdin: ["Wrong-Kayak-42", newPassword, newPassword])
        #expect(passwd.status == 5)
        #expect(passwd.stderr == "error: The current password is incorrect.\n", "\(passwd.stderr)")
        let withdraw = try await cli.run(
            ["withdraw", "--yes", "--password-stdin", "--json"], stdin: ["Wrong-Kayak-42"])
        #expect(withdraw.status == 5)
        #expect(withdraw.errorCode == "wrong_password")
        #expect(
            try withdraw.json()["error"].flatMap { ($0 as? [String: Any])?["message"] as? String }
                == "The password is incorrect.")
        #expect(!withdraw.stdout.lowercased().contains("email"), "\(withdraw.stdout)")
        #expect(try await cli.run(["users", "count"]).stdout == "1\n", "nothing was withdrawn")
    }

    @Test("--json prints exactly one object with ok and, on failure, a stable error code")
    func jsonOutput() async throws {
        let cli = try CLIRunner("json")
        let signup = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin", "--json"],
            stdin: [password, password])
        let object = try signup.json()
        #expect(object["ok"] as? Bool == true)
        #expect((object["user"] as? [String: Any])?["nickname"] as? String == "이순신")
        #expect(signup.stderr.isEmpty)

        let cases: [([String], [String], String)] = [
            (
                ["signup", "--email", "leesoon7@example.com", "--nickname", "둘째", "--password-stdin"],
                [password, password], "email_taken"
            ),
            (
                ["signup", "--email", "abc@example.com", "--nickname", "셋째", "--password-stdin"], [password, password],
                "invalid_email"
            ),
            (
                ["signup", "--email", "another1@example.com", "--nickname", "넷째", "--password-stdin"],
                ["password1", "password1"], "weak_password"
            ),
            (
                ["signup", "--email", "another1@example.com", "--nickname", "넷째", "--password-stdin"],
                [password, "other"], "password_mismatch"
            ),
            (
                ["signup", "--email", "another1@example.com", "--nickname", "x", "--password-stdin"],
                [password, password], "invalid_nickname"
            ),
            (["login", "--email", "nobody99@example.com", "--password-stdin"], [password], "invalid_credentials"),
            (["login", "--email", "leesoon7@example.com", "--password-stdin"], [], "usage"),
            (["verify", "--backend", "nosuch"], [], "unknown_backend"),
            (["start", "--bogus-flag"], [], "usage"),
        ]
        for (arguments, stdin, code) in cases {
            let result = try await cli.run(arguments + ["--json"], stdin: stdin)
            let failure = try result.json()
            #expect(failure["ok"] as? Bool == false, "\(arguments)")
            #expect(result.errorCode == code, "\(arguments): \(result.stdout)")
            #expect(((failure["error"] as? [String: Any])?["message"] as? String)?.isEmpty == false)
            #expect(result.status != 0)
        }
    }

    @Test(
        "a store whose creation fails is named in the error, never by the private name it is built under",
        .enabled(if: StandardInputFaultTests.hasCompiler, Comment(rawValue: StandardInputFaultTests.noCompiler)),
        arguments: ["sqlite", "lmdb"])
    func creationFailureNamesTheStore(_ backend: String) async throws {
        let cli = try CLIRunner("create-fails-\(backend)")
        let shim = try await StandardInputFaultTests.compileShim(into: cli.root)
        let folder = cli.root + "/stores"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/new." + backend
        let signUp = [
            "signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin", "--json",
            "--backend", backend, "--store", store,
        ]
        // Which of the sign-up's calls in the folder touch the store built under its private name.
        let log = cli.root + "/calls.log"
        let counted = try await cli.run(
            signUp, stdin: [password, password],
            environment: ["LD_PRELOAD": shim, "FAULT_DIR": folder, "FAULT_LOG": log])
        #expect(counted.status == 0, "\(counted.stdout)")
        let building = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains(".init-") }.compactMap { $0.split(separator: " ").first.flatMap { Int($0) } }
        try #require(!building.isEmpty, "the store is built under a private name")
        for call in building {
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let failed = try await cli.run(
                signUp, stdin: [password, password],
                environment: ["LD_PRELOAD": shim, "FAULT_DIR": folder, "FAULT_AT": String(call)])
            guard failed.status != 0 else { continue }  // a call whose failure is survived
            #expect(!failed.stdout.contains(".init-"), "call \(call): a private name shows: \(failed.stdout)")
            #expect(failed.stdout.contains(store), "call \(call): the store is not named: \(failed.stdout)")
        }
    }

    @Test("exit codes are distinct per kind of failure")
    func exitCodes() async throws {
        let cli = try CLIRunner("exit")
        try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        let statuses: [(String, Int32)] = [
            ("usage", try await cli.run(["login"]).status),
            (
                "invalid input",
                try await cli.run(
                    ["signup", "--email", "bad", "--nickname", "xx", "--password-stdin"], stdin: [password, password]
                ).status
            ),
            (
                "email taken",
                try await cli.run(
                    ["signup", "--email", "leesoon7@example.com", "--nickname", "xx", "--password-stdin"],
                    stdin: [password, password]
                ).status
            ),
            (
                "credentials",
                try await cli.run(
                    ["login", "--email", "leesoon7@example.com", "--password-stdin"], stdin: ["Wrong-Kayak-42"]
                ).status
            ),
            ("not signed in", try await cli.run(["whoami", "--session-file", cli.root + "/none"]).status),
            ("config", try await cli.run(["start", "--config", cli.root + "/missing.yaml"]).status),
        ]
        #expect(statuses.map(\.1) == [2, 3, 4, 5, 6, 8], "\(statuses)")
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: cli.root + "/broken.json"))
        let store = try await cli.run(["start", "--store", cli.root + "/broken.json"])
        #expect(store.status == 7 && store.stderr.contains("corrupted"))
        #expect(
            try String(contentsOfFile: cli.root + "/broken.json", encoding: .utf8) == "garbage",
            "a corrupt store is not rewritten")
    }

    @Test("global options are accepted on every subcommand")
    func globalOptions() async throws {
        let cli = try CLIRunner("global")
        let config = cli.root + "/c.yaml"
        try "backend: json\n".write(toFile: config, atomically: true, encoding: .utf8)
        let global = [
            "--config", config, "--backend", "json", "--store", cli.root + "/s.json", "--session-file",
            cli.root + "/sess",
            "--json", "--lang", "en",
        ]
        let commands: [([String], [String])] = [
            (
                ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
                [password, password]
            ),
            (["start"], []), (["whoami"], []), (["passwd", "--password-stdin"], [password, newPassword, newPassword]),
            (["logout"], []), (["login", "--email", "leesoon7@example.com", "--password-stdin"], [newPassword]),
            (["withdraw", "--yes", "--password-stdin"], [newPassword]), (["backends"], []), (["verify"], []),
            (["config"], []),
        ]
        for (command, stdin) in commands {
            // backends and verify open no store and no session: they take only the rest.
            let storeless = ["backends", "verify"].contains(command[0])
            let options = storeless ? ["--config", config, "--backend", "json", "--json", "--lang", "en"] : global
            let result = try await cli.run(command + options, stdin: stdin)
            #expect(result.status == 0, "\(command): \(result.stdout) \(result.stderr)")
            #expect(try result.json()["ok"] as? Bool == true)
        }
        #expect(FileManager.default.fileExists(atPath: cli.root + "/s.json"), "--store chose the file")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "the default store was not touched")
    }

    @Test("the language follows LC_ALL / LANG unless --lang says otherwise")
    func language() async throws {
        let cli = try CLIRunner("lang")
        #expect(try await cli.run(["start"], environment: ["LANG": "ko_KR.UTF-8"]).stdout.contains("로그인되어 있지 않습니다"))
        #expect(
            try await cli.run(["start"], environment: ["LC_ALL": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"]).stdout.contains(
                "로그인")
        )
        #expect(
            try await cli.run(["start", "--lang", "en"], environment: ["LANG": "ko_KR.UTF-8"]).stdout.contains(
                "not signed in"))
        let korean = try await cli.run(
            ["signup", "--email", "abc@example.com", "--nickname", "xx", "--password-stdin"],
            environment: ["LANG": "ko_KR.UTF-8"])
        #expect(korean.stderr.contains("6자 이상"))
    }

    @Test(
        "store, session and export files are private; no password or token reaches any file or output",
        arguments: BackendRegistry.embedded.descriptors)
    func secrets(_ backend: any BackendDescriptor) async throws {
        var cli = try CLIRunner("secrets-\(backend.name)")
        cli.extraEnvironment["ACCOUNTS_BACKEND"] = backend.name
        let storePath = cli.root + "/data/accounts/" + backend.defaultStoreName
        var outputs: [String] = []
        func run(_ arguments: [String], _ stdin: [String] = []) async throws {
            let result = try await cli.run(arguments, stdin: stdin)
            outputs += [result.stdout, result.stderr]
        }
        try await run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            [password, password])
        let firstToken = try #require(try cli.savedTokens().first)
        #expect(firstToken.count == 64)
        try await run(["whoami", "--json"])
        try await run(["login", "--email", "leesoon7@example.com", "--password-stdin", "--json"], ["Wrong-Kayak-42"])
        try await run(["login", "--email", "leesoon7@example.com", "--password-stdin", "--remember"], [password])
        let secondToken = try #require(try cli.savedTokens().first)
        try await run(["passwd", "--password-stdin", "--json"], [password, newPassword, newPassword])
        try await run(["users", "show", "leesoon7@example.com", "--json"])
        try await run(["users", "list"])
        try await run(["export", "--output", cli.root + "/export.jsonl", "--with-sessions"])
        try await run(["export", "--with-sessions"])
        try await run(["doctor", "--json"])
        let sessionMode = try FileManager.default.attributesOfItem(atPath: cli.sessionPath)[.posixPermissions] as? Int
        #expect(sessionMode == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: storePath)[.posixPermissions] as? Int) == 0o600)
        #expect(
            (try FileManager.default.attributesOfItem(atPath: cli.root + "/export.jsonl")[.posixPermissions] as? Int)
                == 0o600)
        let folder = (storePath as NSString).deletingLastPathComponent
        #expect((try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int) == 0o700)
        let stateFolder = (cli.sessionPath as NSString).deletingLastPathComponent
        #expect((try FileManager.default.attributesOfItem(atPath: stateFolder)[.posixPermissions] as? Int) == 0o700)
        var files = try FileManager.default.contentsOfDirectory(atPath: folder).map { folder + "/" + $0 }
        files.append(cli.root + "/export.jsonl")
        let contents = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(contents.count >= 2)
        for secret in [password, newPassword, "Wrong-Kayak-42", firstToken, secondToken] {
            #expect(
                !contents.contains { $0.range(of: Data(secret.utf8)) != nil },
                "a store or export file holds a secret in clear")
            #expect(!outputs.contains { $0.contains(secret) }, "an output shows a secret")
        }
    }

    @Test(
        "verify --backend postgres runs every check in scratch schemas of the configured server",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func verifyPostgres() async throws {
        var cli = try CLIRunner("verify-postgres")
        let schema = PostgresTestServer.uniqueSchema("verify")
        cli.extraEnvironment = PostgresTestServer.cliEnvironment(schema: schema)
        let result = try await cli.run(["verify", "--backend", "postgres"])
        // Every check but those about store files: a PostgreSQL store is a schema.
        let checks = ConformanceSuite.checks.filter { !$0.needsStoreFiles }.count
        let aboutFiles = ConformanceSuite.checks.count - checks
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "verify postgres: \(checks) of \(checks) checks passed, \(aboutFiles) skipped (each SKIP line says why)"
            ),
            "\(result.stdout)")
        #expect(result.stdout.contains("the backend does not keep its stores in files"))
    }

    @Test("verify runs every check against a scratch store and prints a line per check")
    func verify() async throws {
        let cli = try CLIRunner("verify")
        let result = try await cli.run(["verify"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("PASS  ") }.count >= 15)
        #expect(lines.last?.hasPrefix("verify sqlite:") == true)
        #expect(try await cli.run(["verify", "--backend", "json"]).stdout.contains("verify json:"))
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "verify never touches the configured store")
        let unknown = try await cli.run(["verify", "--backend", "nosuch"])
        #expect(unknown.status == 8 && unknown.stderr.contains("json") && unknown.stderr.contains("sqlite"))
    }

    @Test("backends lists what is compiled in and marks the chosen one")
    func backends() async throws {
        let cli = try CLIRunner("backends")
        let result = try await cli.run(["backends"])
        #expect(result.stdout.contains("* sqlite"), "the embedded default is selected")
        #expect(result.stdout.contains("  json"))
        let list = try await cli.run(["backends", "--json"]).json()["backends"] as? [[String: Any]]
        #expect(list?.compactMap { $0["name"] as? String } == ["sqlite", "lmdb", "json", "postgres"])
        #expect(list?.compactMap { $0["store_key"] as? String } == ["path", "path", "path", "schema"])
        #expect(result.stdout.contains("  postgres"))
        #expect(try await cli.run(["backends", "--backend", "json"]).stdout.contains("* json"))
    }

    @Test("without a terminal, password prompts fail with a usage error naming --password-stdin")
    func noTerminal() async throws {
        let cli = try CLIRunner("tty")
        let result = try await cli.run(["signup", "--email", "leesoon7@example.com", "--nickname", "이순신"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--password-stdin"))
        let store = (try? Data(contentsOf: URL(fileURLWithPath: cli.storePath))) ?? Data()
        #expect(store.range(of: Data("leesoon7".utf8)) == nil, "nothing was created")
    }

    @Test("verify against a server that cannot be reached is one store_io error naming it, exit 7")
    func verifyUnreachable() async throws {
        let cli = try CLIRunner("verify-unreachable")
        let result = try await cli.run(
            ["verify", "--backend", "postgres"],
            environment: [
                "ACCOUNTS_POSTGRES_HOST": "127.0.0.1", "ACCOUNTS_POSTGRES_PORT": "1",
                "ACCOUNTS_POSTGRES_CONNECT_TIMEOUT_MS": "2000",
            ])
        #expect(result.status == 7, "\(result.stdout) \(result.stderr)")
        #expect(!result.stdout.contains("FAIL"), "no per-check failures: \(result.stdout)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        // The address and the system's reason, not SwiftNIO's debug text of its attempts.
        #expect(result.stderr.contains("cannot connect to 127.0.0.1:1: Connection refused"), "\(result.stderr)")
    }
}
