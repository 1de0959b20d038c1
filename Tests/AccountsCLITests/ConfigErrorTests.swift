import AccountCore
import AccountSettings
import AccountTestSupport
import BackendTestSupport
import Foundation
import Testing

/// Configuration mistakes are reported with the key, where it was set, and the value given;
/// an empty config is a valid one.
extension SettingsLoaderTests {
    @Test("an empty or comments-only config file is a valid, empty config")
    func emptyFiles() async throws {
        let box = try Sandbox()
        for text in ["", "\n\n", "# nothing here yet\n   # still nothing\n"] {
            let file = try box.write(text, to: "empty.yaml")
            let settings = try await box.load(.init(configFile: file))
            #expect(settings.backendName == "sqlite", "\(text.debugDescription)")
            #expect(settings.configFile == file)
        }
    }

    @Test("a bad value names the key, the environment variable that set it, and the value")
    func environmentOrigin() async throws {
        let box = try Sandbox()
        await expectConfigError("config_invalid", mentioning: "ACCOUNTS_SQLITE_BUSY_TIMEOUT_MS") {
            try await box.load(environment: ["ACCOUNTS_SQLITE_BUSY_TIMEOUT_MS": "soon"])
        }
        await expectConfigError("config_invalid", mentioning: "sqlite.busy_timeout_ms") {
            try await box.load(environment: ["ACCOUNTS_SQLITE_BUSY_TIMEOUT_MS": "soon"])
        }
        await expectConfigError("config_invalid", mentioning: "'soon'") {
            try await box.load(environment: ["ACCOUNTS_SQLITE_BUSY_TIMEOUT_MS": "soon"])
        }
        let file = try box.write("login:\n  throttle_after: many\n", to: "c.yaml")
        await expectConfigError("config_invalid", mentioning: "got 'many' (set in \(file))") {
            try await box.load(.init(configFile: file))
        }
    }

    @Test("an unknown backend names the key and where it was set")
    func unknownBackendOrigin() async throws {
        let box = try Sandbox()
        await expectConfigError("unknown_backend", mentioning: "set by --backend") {
            try await box.load(.init(backend: "mongo"))
        }
        await expectConfigError("unknown_backend", mentioning: "set by ACCOUNTS_BACKEND") {
            try await box.load(environment: ["ACCOUNTS_BACKEND": "mongo"])
        }
        let file = try box.write("backend: redis\n", to: "b.yaml")
        await expectConfigError("unknown_backend", mentioning: "(backend, set in \(file))") {
            try await box.load(.init(configFile: file))
        }
    }

    @Test("a path given as a number or true/false is refused; quoted, it is text")
    func nonTextPath() async throws {
        let box = try Sandbox()
        let number = try box.write("sqlite:\n  path: 5\n", to: "n.yaml")
        await expectConfigError("config_invalid", mentioning: "sqlite.path") {
            try await box.load(.init(configFile: number))
        }
        let flag = try box.write("json:\n  path: true\n", to: "t.yaml")
        await expectConfigError("config_invalid", mentioning: "json.path") {
            try await box.load(.init(configFile: flag))
        }
        let quoted = try box.write("sqlite:\n  path: \"5\"\n", to: "q.yaml")
        let settings = try await box.load(.init(configFile: quoted))
        #expect(settings.backend.location == box.root + "/5")
    }

    @Test("paths are normalized: no /./, no /../, no doubled slashes")
    func normalizedPaths() async throws {
        let box = try Sandbox()
        let settings = try await box.load(.init(store: "./a/../b/.//c.sqlite"))
        #expect(settings.backend.location == box.root + "/cwd/b/c.sqlite")
        let file = try box.write("sqlite:\n  path: ../data/./x.sqlite\n", to: "etc/accounts.yaml")
        let fromFile = try await box.load(.init(configFile: file))
        #expect(fromFile.backend.location == box.root + "/data/x.sqlite")
    }
}
