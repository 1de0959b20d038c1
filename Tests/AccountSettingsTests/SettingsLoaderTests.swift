import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountServerSettings
import AccountSettings
import AccountTestSupport
import BackendTestSupport
import Foundation
import PostgresBackend
import StandardBackends
import Testing

@Suite("Settings")
struct SettingsLoaderTests {
    /// A temp folder with a home, removed afterwards.
    final class Sandbox {
        let root: String
        init() throws {
            root = FileManager.default.temporaryDirectory.path + "/settings-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
        var environment: [String: String] { ["HOME": root + "/home"] }
        func write(_ text: String, to name: String) throws -> String {
            let path = root + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        func load(_ overrides: SettingsOverrides = .init(), environment extra: [String: String] = [:]) async throws
            -> AccountSettings
        {
            try await SettingsLoader.load(
                overrides: overrides, environment: environment.merging(extra) { $1 }, workingDirectory: root + "/cwd",
                registry: .standard)
        }
    }

    func expectConfigError(
        _ code: String, mentioning text: String, _ body: () async throws -> AccountSettings
    ) async {
        do {
            _ = try await body()
            Issue.record("expected \(code)")
        } catch let error as AccountError {
            #expect(error.code == code)
            #expect(
                error.message(.english).contains(text), "message '\(error.message(.english))' should mention \(text)")
        } catch {
            Issue.record("untyped error \(error)")
        }
    }

    @Test(
        "mail.tls none: every loopback spelling the mail client sends to is allowed, any other host refused",
        arguments: ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"])
    func clearTextRelayOnLoopback(_ host: String) async throws {
        let box = try Sandbox()
        let mail = [
            "ACCOUNTS_MAIL_SMTP_HOST": host, "ACCOUNTS_MAIL_TLS": "none", "ACCOUNTS_MAIL_FROM": "a@example.com",
        ]
        #expect(try await box.load(environment: mail).mail.smtpHost == host)
        await expectConfigError("config_invalid", mentioning: "loopback") {
            try await box.load(environment: mail.merging(["ACCOUNTS_MAIL_SMTP_HOST": "mail.example.com"]) { $1 })
        }
    }

    @Test("with nothing configured, the defaults apply under the XDG folders")
    func defaults() async throws {
        let box = try Sandbox()
        let settings = try await box.load()
        #expect(settings.backend.name == "sqlite")
        #expect(settings.backend.location == box.root + "/home/.local/share/accounts/accounts.sqlite")
        #expect(
            settings.backend.configuration.values == ["synchronous": .word("full"), "busy_timeout_ms": .integer(5_000)])
        #expect(settings.sessionFile == box.root + "/home/.local/state/accounts/session")
        #expect(settings.storePathIsDefault && settings.sessionFileIsDefault)
        #expect(settings.throttlePolicy == LoginThrottlePolicy())
        #expect(settings.hasher.opsLimit == 2 && settings.hasher.memLimitBytes == 19_456 * 1_024)
        #expect(settings.configFile == nil)
    }

    @Test("flags beat the environment, which beats the file, which beats the defaults")
    func precedence() async throws {
        let box = try Sandbox()
        let file = try box.write(
            """
            backend: json
            json:
              path: from-file.json
              lock_timeout_ms: 111
            login:
              throttle_after: 7
            session:
              idle_timeout_minutes: 5
            """, to: "etc/accounts.yaml")
        let fileOnly = try await box.load(.init(configFile: file))
        #expect(fileOnly.backend.location == box.root + "/etc/from-file.json", "relative to the file's folder")
        #expect(fileOnly.backend.configuration.values["lock_timeout_ms"] == .integer(111))
        #expect(fileOnly.throttlePolicy.backoff.freeAttempts == 7)
        #expect(fileOnly.sessionPolicy.idleTimeoutSeconds == 300)

        let environment = ["ACCOUNTS_JSON_PATH": "from-env.json", "ACCOUNTS_LOGIN_THROTTLE_AFTER": "9"]
        let withEnvironment = try await box.load(.init(configFile: file), environment: environment)
        #expect(withEnvironment.backend.location == box.root + "/cwd/from-env.json")
        #expect(withEnvironment.throttlePolicy.backoff.freeAttempts == 9)
        #expect(withEnvironment.sessionPolicy.idleTimeoutSeconds == 300, "untouched keys still come from the file")

        let withFlags = try await box.load(.init(configFile: file, store: "/abs/flag.json"), environment: environment)
        #expect(withFlags.backend.location == "/abs/flag.json")
        #expect(withFlags.configFile == file)
    }

    @Test("~ in a path from a file, a variable or a flag is the home folder; unset HOME is an error naming the key")
    func homeInPaths() async throws {
        let box = try Sandbox()
        let home = box.root + "/home"
        let file = try box.write(
            "sqlite:\n  path: ~/stores/accounts.sqlite\nsession:\n  file: \"~\"\n", to: "etc/accounts.yaml")
        let fromFile = try await box.load(.init(configFile: file))
        #expect(fromFile.backend.location == home + "/stores/accounts.sqlite")
        #expect(fromFile.sessionFile == home)
        let fromVariable = try await box.load(environment: ["ACCOUNTS_SQLITE_PATH": "~/env.sqlite"])
        #expect(fromVariable.backend.location == home + "/env.sqlite")
        let fromFlag = try await box.load(.init(store: "~/flag.sqlite"))
        #expect(fromFlag.backend.location == home + "/flag.sqlite")
        let otherUser = try await box.load(.init(store: "~root/x.sqlite"))
        #expect(otherUser.backend.location == box.root + "/cwd/~root/x.sqlite", "only the current user's ~")
        try "".write(toFile: home + "/accounts.yaml", atomically: true, encoding: .utf8)
        let config = try await box.load(.init(configFile: "~/accounts.yaml"))
        #expect(config.configFile == home + "/accounts.yaml")
        await expectConfigError("config_invalid", mentioning: "ACCOUNTS_SQLITE_PATH") {
            try await SettingsLoader.load(
                overrides: .init(), environment: ["ACCOUNTS_SQLITE_PATH": "~/x.sqlite"],
                workingDirectory: box.root + "/cwd", registry: .standard)
        }
    }

    @Test("ACCOUNTS_CONFIG and the XDG config file are found")
    func configDiscovery() async throws {
        let box = try Sandbox()
        let xdg = try box.write("login:\n  throttle_after: 3\n", to: "home/.config/accounts/config.yaml")
        #expect(try await box.load().configFile == xdg)
        #expect(try await box.load().throttlePolicy.backoff.freeAttempts == 3)
        let other = try box.write("login:\n  throttle_after: 4\n", to: "other.yaml")
        let viaEnvironment = try await box.load(environment: ["ACCOUNTS_CONFIG": other])
        #expect(viaEnvironment.throttlePolicy.backoff.freeAttempts == 4)
    }

    @Test("a wrong type names the key")
    func wrongType() async throws {
        let box = try Sandbox()
        let file = try box.write("login:\n  throttle_after: lots\n", to: "bad.yaml")
        await expectConfigError("config_invalid", mentioning: "login.throttle_after") {
            try await box.load(.init(configFile: file))
        }
        await expectConfigError("config_invalid", mentioning: "hashing.ops_limit") {
            try await box.load(environment: ["ACCOUNTS_HASHING_OPS_LIMIT": "two"])
        }
    }

    @Test("an out-of-range value names the key and the range")
    func outOfRange() async throws {
        let box = try Sandbox()
        let file = try box.write("password:\n  min_length: 4\n", to: "bad.yaml")
        await expectConfigError("config_invalid", mentioning: "8 to 128") {
            try await box.load(.init(configFile: file))
        }
    }

    @Test("an unknown key, section or environment setting is an error naming it")
    func unknownKeys() async throws {
        let box = try Sandbox()
        let typo = try box.write("login:\n  throttle_aftr: 3\n", to: "typo.yaml")
        await expectConfigError("config_invalid", mentioning: "login.throttle_aftr") {
            try await box.load(.init(configFile: typo))
        }
        let section = try box.write("logins:\n  throttle_after: 3\n", to: "section.yaml")
        await expectConfigError("config_invalid", mentioning: "unknown section 'logins'") {
            try await box.load(.init(configFile: section))
        }
        await expectConfigError("config_invalid", mentioning: "ACCOUNTS_LOGIN_THROTTLE") {
            try await box.load(environment: ["ACCOUNTS_LOGIN_THROTTLE": "3"])
        }
        // A section's key at the top is told which key it is, the server's before a backend's.
        let top = try box.write("port: 9000\n", to: "top.yaml")
        await expectConfigError("config_invalid", mentioning: "did you mean server.port or postgres.port") {
            try await box.load(.init(configFile: top))
        }
        let nothingNear = try box.write("colour: blue\n", to: "colour.yaml")
        await expectConfigError("config_invalid", mentioning: "at the top only backend and the sections") {
            try await box.load(.init(configFile: nothingNear))
        }
    }

    @Test(
        "an unknown ACCOUNTS_ variable is answered with what was probably meant",
        arguments: [
            ("ACCOUNTS_SERVER_PROT", "(did you mean ACCOUNTS_SERVER_PORT?)"),
            ("ACCOUNTS_SQLITE_PTH", "(did you mean ACCOUNTS_SQLITE_PATH?)"),
            ("ACCOUNTS_PORT", "(did you mean ACCOUNTS_SERVER_PORT, ACCOUNTS_MAIL_SMTP_PORT, ACCOUNTS_POSTGRES_PORT?)"),
            (
                "ACCOUNTS_LOGIN_THROTTLE",
                "(did you mean ACCOUNTS_LOGIN_THROTTLE_AFTER, ACCOUNTS_LOGIN_THROTTLE_BASE_DELAY_SECONDS, ACCOUNTS_LOGIN_THROTTLE_MAX_DELAY_SECONDS?)"
            ),
            (
                "ACCOUNTS_STORE",
                "(--store sets the chosen backend's store: ACCOUNTS_SQLITE_PATH, ACCOUNTS_LMDB_PATH, ACCOUNTS_JSON_PATH, ACCOUNTS_POSTGRES_SCHEMA)"
            ),
            ("ACCOUNTS_LANG", "(the language is --lang, or else LC_ALL, LC_MESSAGES or LANG)"),
            ("ACCOUNTS_XYZZY", ""),
        ])
    func unknownVariableHints(_ name: String, hint: String) async throws {
        let box = try Sandbox()
        do {
            _ = try await box.load(environment: [name: "1"])
            Issue.record("\(name) was accepted")
        } catch let error as AccountError {
            let expected =
                "Invalid configuration '\(name)': unknown environment setting" + (hint.isEmpty ? "" : " " + hint)
            #expect(error.message(.english) == expected)
        }
    }

    @Test("an unknown backend lists the known ones, from any source")
    func unknownBackend() async throws {
        let box = try Sandbox()
        await expectConfigError("unknown_backend", mentioning: "json") { try await box.load(.init(backend: "mongo")) }
        let file = try box.write("backend: redis\n", to: "b.yaml")
        await expectConfigError("unknown_backend", mentioning: "redis") { try await box.load(.init(configFile: file)) }
    }

    @Test("a missing or malformed config file is an error")
    func badFiles() async throws {
        let box = try Sandbox()
        await expectConfigError("config_invalid", mentioning: "no config file") {
            try await box.load(.init(configFile: box.root + "/missing.yaml"))
        }
        let broken = try box.write("login: [unclosed\n", to: "broken.yaml")
        await expectConfigError("config_invalid", mentioning: "YAML") { try await box.load(.init(configFile: broken)) }
    }

    @Test("with no config, every setting is what the library's own types default to")
    func defaultsAreTheLibrarysDefaults() async throws {
        let settings = try await Sandbox().load()
        var expected = ServerSettings()
        expected.secretFile = settings.server.secretFile
        #expect(settings.server == expected, "the server.… defaults are ServerSettings()'s")
        #expect(settings.server.secretFile.hasSuffix("/.local/state/accounts/server-secret"), "in the state folder")
        #expect(settings.sessionPolicy == SessionPolicy())
        #expect(settings.passwordPolicy == PasswordPolicy())
        #expect(settings.throttlePolicy == LoginThrottlePolicy())
        #expect(settings.hasher.opsLimit == Argon2idPasswordHasher.recommended.opsLimit)
        #expect(settings.hasher.memLimitBytes == Argon2idPasswordHasher.recommended.memLimitBytes)
    }

    @Test("Config/accounts.yaml and the Configuration article state each key's declared default")
    func shippedDefaultsMatchTheDeclarations() async throws {
        let box = try Sandbox()
        let root = PackageFiles.root
        func described(_ overrides: SettingsOverrides) async throws -> [String: EffectiveSetting] {
            let (_, effective) = try await SettingsLoader.loadDescribed(
                overrides: overrides, environment: box.environment, workingDirectory: box.root,
                registry: .standard)
            return Dictionary(uniqueKeysWithValues: effective.map { ($0.key, $0) })
        }
        let defaults = try await described(.init())
        let shipped = try await described(.init(configFile: root.appendingPathComponent("Config/accounts.yaml").path))
        #expect(defaults.count == SettingsLoader.documentedKeys(registry: .standard).count)
        for (key, setting) in defaults.sorted(by: { $0.key < $1.key }) {
            #expect(shipped[key]?.value == setting.value, "Config/accounts.yaml sets \(key) to another value")
        }
        let article = try String(
            contentsOfFile: PackageFiles.path("Sources/AccountsCLI/AccountsCLI.docc/Configuration.md"), encoding: .utf8)
        for reference in SettingsLoader.keyReference(registry: .standard) {
            // Paths default to XDG folders the article names as such; a secret or an empty text
            // has no default, which the article writes as a dash.
            guard defaults[reference.key]?.expects != "a file path" else { continue }
            let shown = reference.default.flatMap { $0.isEmpty ? nil : "`\($0)`" } ?? "—"
            let row = "| `\(reference.key)` | `\(reference.environment)` | \(shown) |"
            let documented = article.contains(row)
            #expect(documented, "Configuration.md has no row starting \(row)")
        }
    }

    @Test("the shipped config files load and document every key")
    func shippedConfigs() async throws {
        let box = try Sandbox()
        let root = PackageFiles.root
        let main = root.appendingPathComponent("Config/accounts.yaml").path
        let settings = try await box.load(.init(configFile: main))
        #expect(settings.configFile == main)
        #expect(settings.backend.name == "sqlite", "the shipped config uses the embedded default")
        let text = try String(contentsOfFile: main, encoding: .utf8)
        for key in SettingsLoader.documentedKeys(registry: .standard) {
            let leaf = key.split(separator: ".").last.map(String.init) ?? key
            #expect(text.contains(leaf + ":"), "Config/accounts.yaml does not document \(key)")
        }
        // The Configuration article's table, key and variable, for every key.
        let article = try String(
            contentsOfFile: PackageFiles.path("Sources/AccountsCLI/AccountsCLI.docc/Configuration.md"), encoding: .utf8)
        let missing = SettingsLoader.keyReference(registry: .standard).filter {
            !article.contains("| `\($0.key)` | `\($0.environment)` |")
        }.map(\.key)
        #expect(missing.isEmpty, "Configuration.md has no row for these keys")
        let examples = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Config/examples").path)
        for backend in SettingsLoader.backendNames(registry: .standard) {
            #expect(examples.contains("\(backend).yaml"), "no Config/examples/\(backend).yaml")
            let loaded = try await box.load(
                .init(configFile: root.appendingPathComponent("Config/examples/\(backend).yaml").path))
            #expect(loaded.backend.name == backend)
            // Used in place (`--config Config/examples/sqlite.yaml`), an example must not put a
            // store, with its password hashes, into the checkout.
            #expect(
                !loaded.backend.location.hasPrefix(root.path + "/"),
                "Config/examples/\(backend).yaml puts its store in the checkout: \(loaded.backend.location)")
        }
    }
}

/// The PostgreSQL section: the password only from the environment or a private file, never a
/// config file or a URL; a bad schema name or an unreachable server is a typed error naming it.
@Suite("PostgreSQL settings")
struct PostgresSettingsTests {
    typealias Sandbox = SettingsLoaderTests.Sandbox

    @Test("a password in the config file is refused, naming the variable to use instead")
    func passwordInFile() async throws {
        let box = try Sandbox()
        let config = try box.write("backend: postgres\npostgres:\n  password: hunter2-secret\n", to: "c.yaml")
        do {
            _ = try await box.load(.init(configFile: config))
            Issue.record("a password in the file was accepted")
        } catch let error as AccountError {
            #expect(error.code == "config_invalid")
            #expect(error.message(.english).contains("ACCOUNTS_POSTGRES_PASSWORD"))
            #expect(!error.message(.english).contains("hunter2-secret"), "the message repeats the secret")
        }
    }

    @Test("the password comes from ACCOUNTS_POSTGRES_PASSWORD and never shows in a description")
    func passwordFromEnvironment() async throws {
        let box = try Sandbox()
        let settings = try await box.load(
            .init(backend: "postgres"), environment: ["ACCOUNTS_POSTGRES_PASSWORD": "hunter2-secret"])
        #expect(try settings.backend.configuration.value(of: PostgresBackendDescriptor.password) == "hunter2-secret")
        #expect(settings.backend.location == "accounts", "the default schema")
        #expect(!String(describing: settings.backend.configuration).contains("hunter2-secret"))
        #expect(!String(reflecting: settings.backend.configuration.values).contains("hunter2-secret"))
    }

    @Test("an empty ACCOUNTS_POSTGRES_PASSWORD counts as unset, so the password file is read")
    func emptyPasswordVariable() async throws {
        let box = try Sandbox()
        let file = try box.write("from-the-file\n", to: "pw")
        chmod(file, 0o600)
        let settings = try await box.load(
            .init(backend: "postgres"),
            environment: ["ACCOUNTS_POSTGRES_PASSWORD": "", "ACCOUNTS_POSTGRES_PASSWORD_FILE": file])
        #expect(try settings.backend.configuration.value(of: PostgresBackendDescriptor.password) == nil)
        #expect(
            try PostgresBackendDescriptor.connectionOptions(settings.backend.configuration).password == "from-the-file")
    }

    @Test("a URL fills host, port, user, database and TLS; a password in it is refused")
    func url() throws {
        let configuration = BackendConfiguration(
            location: "crm", values: ["url": .word("postgres://app@db.internal:6543/people?sslmode=require")])
        let options = try PostgresBackendDescriptor.connectionOptions(configuration)
        #expect(options.host == "db.internal" && options.port == 6543 && options.user == "app")
        #expect(options.database == "people" && options.tls == .require && options.schema == "crm")
        #expect(!options.location.contains("password"))
        for bad in ["postgres://app:hunter2@db/x", "postgres://db/x?password=hunter2", "mysql://db/x"] {
            do {
                _ = try PostgresBackendDescriptor.connectionOptions(
                    BackendConfiguration(location: "crm", values: ["url": .word(bad)]))
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.code == "config_invalid")
                #expect(!error.message(.english).contains("hunter2"), "the message repeats the secret")
            }
        }
    }

    @Test("a host that is a folder is the server's Unix socket, as in libpq; in a URL too")
    func unixSocket() throws {
        func options(_ values: [String: BackendOptionValue]) throws(AccountError) -> PostgresOptions {
            try PostgresBackendDescriptor.connectionOptions(BackendConfiguration(location: "crm", values: values))
        }
        let plain = try options(["host": .word("/run/postgresql"), "port": .integer(5433)])
        #expect(plain.unixSocketPath == "/run/postgresql/.s.PGSQL.5433")
        #expect(plain.location == "postgres://accounts@:5433/accounts?host=/run/postgresql schema crm")
        #expect(try options(["host": .word("/run/postgresql/")]).unixSocketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(try options(["host": .word("db.internal")]).unixSocketPath == nil)
        let query = try options(["url": .word("postgres://app@/people?host=/var/run/postgresql&port=6543")])
        #expect(query.unixSocketPath == "/var/run/postgresql/.s.PGSQL.6543" && query.user == "app")
        #expect(query.database == "people")
        let encoded = try options(["url": .word("postgresql://app@%2Fvar%2Frun%2Fpostgresql/people")])
        #expect(encoded.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5432")
        for bad in ["postgres://app@/people?host=", "postgres://app@/people?host=/x&port=0"] {
            #expect(throws: AccountError.self, "\(bad) was accepted") { try options(["url": .word(bad)]) }
        }
    }

    @Test("TLS demanded on a Unix socket, or a socket path too long for one, is refused before connecting")
    func unixSocketRefusals() async throws {
        for mode in ["require", "verify-full"] {
            let options = try PostgresBackendDescriptor.connectionOptions(
                BackendConfiguration(location: "crm", values: ["host": .word("/run/postgresql"), "tls": .word(mode)]))
            do {
                _ = try await PostgresRepository.open(options)
                Issue.record("tls \(mode) on a socket was accepted")
            } catch let error as AccountError {
                #expect(error.code == "config_invalid" && error.message(.english).contains("postgres.tls"))
                #expect(error.message(.english).contains("/run/postgresql/.s.PGSQL.5432"))
            }
        }
        let deep = "/" + String(repeating: "d", count: 100)
        do {
            _ = try await PostgresRepository.open(PostgresOptions(host: deep, tls: .disable))
            Issue.record("a 112-byte socket path was accepted")
        } catch let error as AccountError {
            #expect(error.code == "config_invalid" && error.message(.english).contains("postgres.host"))
        }
    }

    @Test("a password file must be private to its owner; its first line is the password")
    func passwordFile() throws {
        let box = try Sandbox()
        let file = try box.write("s3cret-line\nignored\n", to: "pw")
        func options() throws(AccountError) -> PostgresOptions {
            try PostgresBackendDescriptor.connectionOptions(
                BackendConfiguration(location: "accounts", values: ["password_file": .word(file)]))
        }
        chmod(file, 0o644)
        #expect(throws: AccountError.self) { try options() }
        chmod(file, 0o600)
        #expect(try options().password == "s3cret-line")
    }

    @Test("an unreachable server is store_io naming the server and the reason, never the password")
    func unreachable() async throws {
        var options = PostgresOptions(host: "127.0.0.1", port: 1, password: "hunter2-secret", schema: "accounts")
        options.connectTimeoutMilliseconds = 2_000
        do {
            _ = try await PostgresRepository.open(options)
            Issue.record("opened a store on port 1")
        } catch let error as AccountError {
            #expect(error.code == "store_io")
            #expect(error.message(.english).contains("127.0.0.1:1"))
            #expect(error.message(.english).lowercased().contains("refused"))
            #expect(!error.message(.english).contains("hunter2-secret"))
        }
    }

    @Test("a schema name that is not a plain identifier is config_invalid before connecting")
    func badSchema() async throws {
        for name in ["Accounts", "a-b", "pg_catalog", "1abc", "", String(repeating: "a", count: 64), "x\"; DROP"] {
            let error = await accountError { _ = try await PostgresRepository.open(PostgresOptions(schema: name)) }
            #expect(error?.code == "config_invalid", "\(name)")
        }
    }
}
