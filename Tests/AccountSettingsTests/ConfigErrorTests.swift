import AccountBackendKit
import AccountCore
import AccountServerSettings
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
            #expect(settings.backend.name == "sqlite", "\(text.debugDescription)")
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

    @Test("trusted proxies and monitoring clients are IP addresses or CIDR blocks; anything else names the entry")
    func addressLists() async throws {
        let box = try Sandbox()
        let defaults = try await box.load()
        #expect(defaults.server.monitoringClients == ["127.0.0.1", "::1"], "loopback unless set")
        #expect(defaults.server.trustedProxies.isEmpty)
        let file = try box.write(
            "server:\n  trusted_proxies: \"10.0.0.0/8, fd00::/8\"\n  monitoring_clients: \"192.0.2.7,::1\"\n",
            to: "lists.yaml")
        let listed = try await box.load(.init(configFile: file))
        #expect(listed.server.trustedProxies == ["10.0.0.0/8", "fd00::/8"])
        #expect(listed.server.monitoringClients == ["192.0.2.7", "::1"])
        // A host name, a typo, a prefix too long: each would match no peer, so each is refused.
        for (key, value) in [
            ("ACCOUNTS_SERVER_TRUSTED_PROXIES", "127.0.0.1, localhost"),
            ("ACCOUNTS_SERVER_MONITORING_CLIENTS", "10.0.0.256"),
            ("ACCOUNTS_SERVER_MONITORING_CLIENTS", "10.0.0.0/33"),
        ] {
            let entry = value.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)
            let name = key.dropFirst("ACCOUNTS_".count).lowercased().replacingOccurrences(
                of: "server_", with: "server.")
            await expectConfigError("config_invalid", mentioning: "\(name)") {
                try await box.load(environment: [key: value])
            }
            await expectConfigError("config_invalid", mentioning: "\"\(entry)\" is not an IP address") {
                try await box.load(environment: [key: value])
            }
        }
    }

    @Test("list entries are trimmed of spaces and tabs, Unicode's too, but a line break stays and is refused")
    func listEntryTrimming() async throws {
        let box = try Sandbox()
        // A tab, a no-break space and an ideographic space (Unicode space separators) around entries.
        let spaced = "\t10.0.0.0/8 ,\u{00A0}fd00::/8\u{3000}"
        let listed = try await box.load(environment: ["ACCOUNTS_SERVER_TRUSTED_PROXIES": spaced])
        #expect(listed.server.trustedProxies == ["10.0.0.0/8", "fd00::/8"])
        // A line break is not a space between entries: the entry keeps it, and it is no address.
        await expectConfigError("config_invalid", mentioning: "is not an IP address") {
            try await box.load(environment: ["ACCOUNTS_SERVER_TRUSTED_PROXIES": "10.0.0.0/8,\n192.0.2.1"])
        }
    }

    @Test("CORS origins are written as browsers send them; another form is refused with the one to write")
    func corsOrigins() async throws {
        let box = try Sandbox()
        let origins = "https://app.example.com, http://localhost:3000, http://[::1]:8080"
        let listed = try await box.load(environment: ["ACCOUNTS_SERVER_CORS_ORIGINS": origins])
        #expect(listed.server.corsOrigins == ["https://app.example.com", "http://localhost:3000", "http://[::1]:8080"])
        for (value, mention) in [
            ("https://app.example.com/", "write https://app.example.com"),
            ("https://App.Example.com", "write https://app.example.com"),
            ("https://app.example.com:443", "write https://app.example.com"),
            ("http://localhost:3000, HTTP://localhost:3000", "write http://localhost:3000"),
            ("app.example.com", #""app.example.com" is not a web origin"#),
            ("*", #""*" is not a web origin"#),
            ("https://app.example.com/login", "not a web origin"),
            ("ftp://files.example.com", "not a web origin"),
            ("https://例え.jp", "not a web origin"),
        ] {
            await expectConfigError("config_invalid", mentioning: "server.cors_origins") {
                try await box.load(environment: ["ACCOUNTS_SERVER_CORS_ORIGINS": value])
            }
            await expectConfigError("config_invalid", mentioning: mention) {
                try await box.load(environment: ["ACCOUNTS_SERVER_CORS_ORIGINS": value])
            }
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
