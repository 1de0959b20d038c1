import AccountCore
import AccountSettings
import Foundation
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
                overrides: overrides, environment: environment.merging(extra) { $1 }, workingDirectory: root + "/cwd")
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

    @Test("with nothing configured, the defaults apply under the XDG folders")
    func defaults() async throws {
        let box = try Sandbox()
        let settings = try await box.load()
        #expect(settings.backendName == "sqlite")
        #expect(settings.backend.storePath == box.root + "/home/.local/share/accounts/accounts.sqlite")
        #expect(settings.backend.values == ["synchronous": .word("full"), "busy_timeout_ms": .integer(5_000)])
        #expect(settings.sessionFile == box.root + "/home/.local/state/accounts/session")
        #expect(settings.storePathIsDefault && settings.sessionFileIsDefault)
        #expect(settings.throttlePolicy == ThrottlePolicy())
        #expect(settings.hashOpsLimit == 2 && settings.hashMemLimitKiB == 19_456)
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
        #expect(fileOnly.backend.storePath == box.root + "/etc/from-file.json", "relative to the file's folder")
        #expect(fileOnly.backend.values["lock_timeout_ms"] == .integer(111))
        #expect(fileOnly.throttlePolicy.freeAttempts == 7)
        #expect(fileOnly.sessionPolicy.idleTimeoutSeconds == 300)

        let environment = ["ACCOUNTS_JSON_PATH": "from-env.json", "ACCOUNTS_LOGIN_THROTTLE_AFTER": "9"]
        let withEnvironment = try await box.load(.init(configFile: file), environment: environment)
        #expect(withEnvironment.backend.storePath == box.root + "/cwd/from-env.json")
        #expect(withEnvironment.throttlePolicy.freeAttempts == 9)
        #expect(withEnvironment.sessionPolicy.idleTimeoutSeconds == 300, "untouched keys still come from the file")

        let withFlags = try await box.load(.init(configFile: file, store: "/abs/flag.json"), environment: environment)
        #expect(withFlags.backend.storePath == "/abs/flag.json")
        #expect(withFlags.configFile == file)
    }

    @Test("ACCOUNTS_CONFIG and the XDG config file are found")
    func configDiscovery() async throws {
        let box = try Sandbox()
        let xdg = try box.write("login:\n  throttle_after: 3\n", to: "home/.config/accounts/config.yaml")
        #expect(try await box.load().configFile == xdg)
        #expect(try await box.load().throttlePolicy.freeAttempts == 3)
        let other = try box.write("login:\n  throttle_after: 4\n", to: "other.yaml")
        let viaEnvironment = try await box.load(environment: ["ACCOUNTS_CONFIG": other])
        #expect(viaEnvironment.throttlePolicy.freeAttempts == 4)
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

    @Test("the shipped config files load and document every key")
    func shippedConfigs() async throws {
        let box = try Sandbox()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let main = root.appendingPathComponent("Config/accounts.yaml").path
        let settings = try await box.load(.init(configFile: main))
        #expect(settings.configFile == main)
        #expect(settings.backendName == "sqlite", "the shipped config uses the embedded default")
        let text = try String(contentsOfFile: main, encoding: .utf8)
        for key in SettingsLoader.documentedKeys() {
            let leaf = key.split(separator: ".").last.map(String.init) ?? key
            #expect(text.contains(leaf + ":"), "Config/accounts.yaml does not document \(key)")
        }
        let examples = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Config/examples").path)
        for backend in SettingsLoader.backendNames() {
            #expect(examples.contains("\(backend).yaml"), "no Config/examples/\(backend).yaml")
            let loaded = try await box.load(
                .init(configFile: root.appendingPathComponent("Config/examples/\(backend).yaml").path))
            #expect(loaded.backendName == backend)
        }
    }
}
