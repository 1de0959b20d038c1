import AccountBackendKit
import AccountTestSupport
import Foundation
import StandardBackends
import Testing

/// `accounts config`: every setting a command would use, each with the source that set it, read
/// and checked as every command reads them; secrets never shown.
@Suite("accounts config")
struct ConfigCommandTests {
    /// The `settings` array of `accounts config --json`, by key.
    static func settings(_ result: CLIRunner.Result) throws -> [String: [String: Any]] {
        let list = try #require(try result.json()["settings"] as? [[String: Any]], "\(result.stdout)")
        return Dictionary(uniqueKeysWithValues: list.map { ($0["key"] as? String ?? "", $0) })
    }

    @Test("with nothing set, each key is its default, the store and session under the XDG folders")
    func defaults() async throws {
        let cli = try CLIRunner("config-defaults")
        let result = try await cli.run(["config", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["config_file"] is NSNull && json["backend"] as? String == "sqlite")
        let settings = try Self.settings(result)
        #expect(settings["sqlite.path"]?["value"] as? String == cli.storePath)
        #expect(settings["session.file"]?["value"] as? String == cli.sessionPath)
        #expect(
            settings["server.secret_file"]?["value"] as? String == cli.root + "/state/accounts/server-secret",
            "the secret file in use, not (none)")
        #expect(settings["server.port"]?["value"] as? Int == 8080)
        #expect(settings["server.web_pages"]?["value"] as? Bool == true)
        #expect(settings["server.monitoring_clients"]?["value"] as? String == "127.0.0.1, ::1")
        #expect(settings["server.tls_certificate"]?["value"] is NSNull)
        // The runner sets the hashing cost for speed: those two name their variable.
        #expect(settings["hashing.ops_limit"]?["value"] as? Int == 1)
        #expect(settings["hashing.ops_limit"]?["set_by"] as? String == "ACCOUNTS_HASHING_OPS_LIMIT")
        let notDefault = settings.values.filter { $0["source"] as? String != "default" }.compactMap {
            $0["key"] as? String
        }
        #expect(notDefault.sorted() == ["hashing.mem_limit_kib", "hashing.ops_limit"])
        // The global keys and the chosen backend's section, nothing of the others.
        #expect(settings.keys.contains("sqlite.busy_timeout_ms"))
        #expect(!settings.keys.contains { $0.hasPrefix("lmdb.") || $0.hasPrefix("postgres.") }, "\(settings.keys)")
    }

    @Test("each value names the strongest source that set it: flag, variable, config file, default")
    func layering() async throws {
        let cli = try CLIRunner("config-layering")
        let config = cli.root + "/etc/accounts.yaml"
        try FileManager.default.createDirectory(atPath: cli.root + "/etc", withIntermediateDirectories: true)
        try """
        backend: sqlite
        sqlite:
          path: data/people.sqlite
          busy_timeout_ms: 2500
        session:
          file: state/session
          idle_timeout_minutes: 30
        server:
          port: 9000
          cors_origins: https://app.example.com
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let flagged = cli.root + "/flagged.sqlite"
        let arguments = ["config", "--config", config, "--store", flagged, "--all"]
        let environment = ["ACCOUNTS_SERVER_PORT": "9100"]
        let result = try await cli.run(arguments + ["--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["config_file"] as? String == config)
        let settings = try Self.settings(result)
        func check(_ key: String, _ value: Any, _ source: String, _ setBy: String?) {
            let entry = settings[key]
            #expect("\(entry?["value"] ?? "missing")" == "\(value)", "\(key)")
            #expect(entry?["source"] as? String == source, "\(key): \(entry ?? [:])")
            #expect(entry?["set_by"] as? String == setBy, "\(key): \(entry ?? [:])")
        }
        check("sqlite.path", flagged, "flag", "--store")
        check("server.port", 9100, "environment", "ACCOUNTS_SERVER_PORT")
        check("server.cors_origins", "https://app.example.com", "file", config)
        check("sqlite.busy_timeout_ms", 2500, "file", config)
        // A relative path in the file is relative to the file's folder.
        check("session.file", cli.root + "/etc/state/session", "file", config)
        check("session.idle_timeout_minutes", 30, "file", config)
        check("server.host", "127.0.0.1", "default", nil)
        // --store sets the chosen backend's store only; the other sections keep their defaults.
        check("lmdb.path", cli.root + "/data/accounts/accounts.lmdb", "default", nil)
        check("postgres.schema", "accounts", "default", nil)

        let text = try await cli.run(arguments, environment: environment)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Config file: \(config)")
        let port = lines.first { $0.hasPrefix("server.port ") }?.split(separator: " ").map(String.init)
        #expect(port == ["server.port", "9100", "ACCOUNTS_SERVER_PORT"], "\(text.stdout)")
        let cors = lines.first { $0.hasPrefix("server.cors_origins ") }?.split(separator: " ").map(String.init)
        #expect(cors == ["server.cors_origins", "https://app.example.com", "config", "file"], "\(text.stdout)")
    }

    @Test(
        "a secret is never shown, nor a password inside a URL",
        arguments: [
            ("postgres://ann:{secret}@db.example:6543/people", "postgres://ann:***@db.example:6543/people"),
            (
                "postgres://db.example/people?sslmode=require&password={secret}",
                "postgres://db.example/people?sslmode=require&password=***"
            ),
            (
                "postgres://ann@db.example/people?PASSWORD={secret}#x",
                "postgres://ann@db.example/people?PASSWORD=***#x"
            ),
            ("postgres://ann@db.example/people", "postgres://ann@db.example/people"),
        ])
    func secrets(url: String, shown: String) async throws {
        // The arguments hold a placeholder, so that the test's own name never shows the secret.
        let url = url.replacingOccurrences(of: "{secret}", with: "Hidden-Word-77")
        let cli = try CLIRunner("config-secrets")
        let environment = ["ACCOUNTS_POSTGRES_PASSWORD": "Hidden-Word-91", "ACCOUNTS_POSTGRES_URL": url]
        // With sqlite chosen, the postgres section is listed (--all) but not judged: masking is
        // all that keeps its URL's password off the screen.
        let listing = ["config", "--backend", "sqlite", "--all"]
        let json = try await cli.run(listing + ["--json"], environment: environment)
        let text = try await cli.run(listing, environment: environment)
        // With postgres chosen, the backend's own check refuses a URL carrying a password.
        let chosen = try await cli.run(["config", "--backend", "postgres", "--json"], environment: environment)
        for result in [json, text, chosen] {
            // Asserted on a Bool, so that a failure does not print the output it found the secret in.
            let leaked = (result.stdout + result.stderr).contains("Hidden-Word")
            #expect(!leaked, "a secret was printed")
        }
        #expect(json.status == 0 && text.status == 0, "\(json.stderr)\(text.stderr)")
        let settings = try Self.settings(json)
        #expect(settings["postgres.password"]?["value"] is NSNull)
        #expect(settings["postgres.password"]?["secret"] as? Bool == true)
        #expect(settings["postgres.password"]?["set_by"] as? String == "ACCOUNTS_POSTGRES_PASSWORD")
        #expect(settings["postgres.url"]?["value"] as? String == shown)
        #expect(text.stdout.contains("(set, not shown)"), "\(text.stdout)")
        if shown == url {
            #expect(chosen.status == 0, "\(chosen.stdout)")
        } else {
            #expect(chosen.status == 8 && chosen.errorCode == "config_invalid")
            #expect(chosen.stdout.contains("postgres.url"), "the error names the key")
        }
    }

    @Test(
        "the chosen backend's own checks run without connecting: a loose password file, a bad schema name or TLS roots file is exit 8"
    )
    func backendChecks() async throws {
        let cli = try CLIRunner("config-backend-checks")
        let file = cli.root + "/pg-password"
        try "Hidden-Word-12\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        // Port 1 on loopback: were the check to connect, this would be store_io, not exit 8 or 0.
        let environment = [
            "ACCOUNTS_POSTGRES_PASSWORD_FILE": file, "ACCOUNTS_POSTGRES_HOST": "127.0.0.1",
            "ACCOUNTS_POSTGRES_PORT": "1",
        ]
        let loose = try await cli.run(["config", "--backend", "postgres", "--json"], environment: environment)
        #expect(loose.status == 8 && loose.errorCode == "config_invalid", "\(loose.stdout)")
        #expect(loose.stdout.contains("postgres.password_file") && loose.stdout.contains(file), "\(loose.stdout)")
        let leaked = loose.stdout.contains("Hidden-Word")
        #expect(!leaked, "the password file's line was printed")
        // Another backend chosen: the postgres section is not used, so not judged.
        #expect(try await cli.run(["config", "--all"], environment: environment).status == 0)
        chmod(file, 0o600)
        let fixed = try await cli.run(["config", "--backend", "postgres", "--json"], environment: environment)
        #expect(fixed.status == 0, "\(fixed.stdout)")
        // An empty variable counts as unset: the password file is what the backend will use.
        let cleared = try await cli.run(
            ["config", "--backend", "postgres", "--json"],
            environment: environment.merging(["ACCOUNTS_POSTGRES_PASSWORD": ""]) { $1 })
        let password = try Self.settings(cleared)["postgres.password"]
        #expect(password?["value"] is NSNull && password?["set_by"] as? String == "ACCOUNTS_POSTGRES_PASSWORD")
        let text = try await cli.run(
            ["config", "--backend", "postgres"],
            environment: environment.merging(["ACCOUNTS_POSTGRES_PASSWORD": ""]) { $1 })
        let line = text.stdout.split(separator: "\n").first { $0.hasPrefix("postgres.password ") }
        #expect(line?.contains("(none)") == true, "\(text.stdout)")
        // What the connector checks before connecting: the schema's name and the TLS roots' file.
        let refusals: [(variables: [String: String], key: String)] = [
            (["ACCOUNTS_POSTGRES_SCHEMA": "Not-A-Schema"], "postgres.schema"),
            (
                ["ACCOUNTS_POSTGRES_TLS": "verify-full", "ACCOUNTS_POSTGRES_TLS_CA_FILE": cli.root + "/missing.pem"],
                "postgres.tls_ca_file"
            ),
            (["ACCOUNTS_POSTGRES_TLS_CA_FILE": file], "postgres.tls_ca_file"),
        ]
        for (variables, key) in refusals {
            let refused = try await cli.run(
                ["config", "--backend", "postgres", "--json"], environment: environment.merging(variables) { $1 })
            #expect(refused.status == 8 && refused.stdout.contains(key), "\(variables): \(refused.stdout)")
        }
    }

    @Test("--host and --port show what serve would listen on, named as their source")
    func listenFlags() async throws {
        let cli = try CLIRunner("config-listen")
        let result = try await cli.run(
            ["config", "--host", "0.0.0.0", "--port", "9001", "--json"], environment: ["ACCOUNTS_SERVER_PORT": "9100"])
        let settings = try Self.settings(result)
        #expect(settings["server.host"]?["value"] as? String == "0.0.0.0")
        #expect(settings["server.host"]?["set_by"] as? String == "--host")
        #expect(settings["server.port"]?["value"] as? Int == 9001)
        #expect(settings["server.port"]?["set_by"] as? String == "--port")
        let refused = try await cli.run(["config", "--port", "-1", "--json"])
        #expect(refused.status == 8 && refused.stdout.contains("server.port"), "\(refused.stdout)")
    }

    @Test("--all lists the section of every backend the build has")
    func allSections() async throws {
        let cli = try CLIRunner("config-all")
        let settings = try Self.settings(try await cli.run(["config", "--all", "--json"]))
        for backend in BackendRegistry.standard.descriptors {
            for option in backend.options {
                #expect(settings["\(backend.name).\(option.name)"] != nil, "\(backend.name).\(option.name) missing")
            }
            #expect(settings["\(backend.name).\(backend.storeKey)"] != nil, "\(backend.name)'s store key missing")
        }
    }

    @Test("a config any command refuses is refused here too (exit 8), naming the key and the file")
    func refused() async throws {
        let cli = try CLIRunner("config-refused")
        let config = cli.root + "/bad.yaml"
        try "server:\n  port: 70000\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await cli.run(["config", "--config", config, "--json"])
        #expect(result.status == 8, "\(result.stdout)")
        #expect(result.errorCode == "config_invalid")
        #expect(result.stdout.contains("server.port") && result.stdout.contains(config), "\(result.stdout)")
    }

    @Test("in Korean, the file line, the sources and the empty values")
    func korean() async throws {
        let cli = try CLIRunner("config-korean")
        let result = try await cli.run(["config", "--lang", "ko"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "설정 파일: 없음 (기본값과 ACCOUNTS_ 변수만 적용)")
        #expect(lines.contains { $0.hasPrefix("server.host ") && $0.hasSuffix(" 기본값") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("server.tls_key ") && $0.contains("(없음)") }, "\(result.stdout)")
    }
}
