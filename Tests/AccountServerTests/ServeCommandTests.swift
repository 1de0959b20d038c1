import AccountServer
import AccountServerSettings
import AccountTestSupport
import AsyncHTTPClient
import BackendTestSupport
import ChildProcesses
import Foundation
import NIOHTTP1
import Testing

/// `accounts serve` as operators run it: config from the sandbox, SIGTERM, several hosts.
@Suite("accounts serve")
struct ServeCommandTests {
    static let signUp = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42","nickname":"이순신"}"#
    static let login = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42"}"#

    @Test("SIGTERM stops the server gracefully: exit 0, the store closed and sound")
    func sigterm() async throws {
        let runner = try CLIRunner("serve-sigterm")
        let server = try await ServeProcess(environment: runner.environment, folder: runner.root)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let http = ServerClient(client: client, port: server.port)
        let created = try await http.send(.POST, "/v1/signup", json: Self.signUp)
        #expect(created.status == 201)
        #expect(try await http.send(.GET, "/healthz").json["backend"] as? String == "sqlite")
        #expect(try await http.send(.GET, "/metrics").text.contains("\naccounts_log_lines_dropped_total 0\n"))
        try await client.shutdown()
        let (status, output) = await server.stop()
        #expect(status == 0)
        #expect(output.contains("Server stopped; the store is closed."))
        let count = try await runner.run(["users", "count"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try await runner.run(["doctor", "--json"]).stdout.contains(#""integrity_ok":true"#))
    }

    /// A shutdown that hangs must fail the test that stops the server, not hold the run until
    /// CI's own limit. A stopped process stands in for the hang: it cannot act on SIGTERM.
    @Test("a server that does not exit after SIGTERM is killed when the stop's limit passes, and said to have overrun")
    func stopThatHangs() async throws {
        let runner = try CLIRunner("serve-stop-hangs")
        let server = try await ServeProcess(environment: runner.environment, folder: runner.root)
        kill(server.processIdentifier, SIGSTOP)
        let error = await #expect(throws: SpawnedProcess.Overran.self) {
            try await server.stop(within: .milliseconds(500))
        }
        #expect(error?.reason == .limitPassed)
        #expect(error?.exited == false, "\(String(describing: error))")
        #expect(try await processEnds(server.processIdentifier, within: 10), "the server was not killed")
    }

    @Test("/healthz measures the disk under the store's file: 200 with its free space, 503 under the setting")
    func healthMeasuresTheStoresDisk() async throws {
        let runner = try CLIRunner("serve-health-disk")
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        // The default (64 MiB) on this machine's disk, then a minimum no disk has (1 PiB).
        for (minimum, status) in [(nil, 200), ("1073741824", 503)] {
            var environment = runner.environment
            environment["ACCOUNTS_SERVER_HEALTH_MIN_FREE_MIB"] = minimum
            let server = try await ServeProcess(environment: environment, folder: runner.root)
            let health = try await ServerClient(client: client, port: server.port).send(.GET, "/healthz")
            #expect(health.status == status, "\(health.text)")
            if status == 200 {
                #expect(((health.json["disk_free_bytes"] as? NSNumber)?.int64Value ?? 0) > 64 << 20)
            } else {
                #expect(health.code == "store_disk_full")
            }
            #expect(await server.stop().status == 0)
        }
        try await client.shutdown()
    }

    @Test(
        "server.monitoring_clients decides who reads /metrics; on a dual-stack socket an IPv4 client is its IPv4 address"
    )
    func monitoringClients() async throws {
        let runner = try CLIRunner("serve-monitoring")
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        // Listening on `::`, the server sees the test's 127.0.0.1 as ::ffff:127.0.0.1.
        for (clients, status) in [(nil, 200), ("127.0.0.0/8", 200), ("::1, 192.0.2.1", 403)] {
            var environment = runner.environment
            environment["ACCOUNTS_SERVER_HOST"] = "::"
            environment["ACCOUNTS_SERVER_MONITORING_CLIENTS"] = clients
            let server = try await ServeProcess(environment: environment, folder: runner.root)
            let http = ServerClient(client: client, port: server.port)
            let metrics = try await http.send(.GET, "/metrics")
            let health = try await http.send(.GET, "/healthz")
            #expect(metrics.status == status, "\(clients ?? "the default"): \(metrics.text)")
            #expect((health.json["backend"] as? String == "sqlite") == (status == 200), "\(health.text)")
            #expect(await server.stop().status == 0)
        }
        try await client.shutdown()
    }

    @Test("with --json every line of standard output is one JSON object: where it listens, then the reply")
    func jsonOutput() async throws {
        let runner = try CLIRunner("serve-json")
        let server = try await ServeProcess(environment: runner.environment, folder: runner.root, arguments: ["--json"])
        let listening = try #require(
            try JSONSerialization.jsonObject(with: Data(server.announcement.utf8)) as? [String: Any])
        #expect(listening["ok"] as? Bool == true)
        #expect(listening["listening"] as? String == "http://127.0.0.1:\(server.port)")
        #expect(listening["port"] as? Int == server.port)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let health = try await ServerClient(client: client, port: server.port).send(.GET, "/healthz")
        try await client.shutdown()
        #expect(health.status == 200)
        let (status, output) = await server.stop()
        #expect(status == 0)
        let reply = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "one object: \(output)")
        #expect(reply["ok"] as? Bool == true)
        #expect(reply["stopped"] as? Bool == true)
    }

    @Test("the URL it announces is one a client takes: an IPv6 address in brackets")
    func announcedURL() {
        let listen = { (host: String) in ServerSettings(host: host, port: 0) }
        #expect(listen("127.0.0.1").url(port: 8080) == "http://127.0.0.1:8080")
        #expect(listen("::1").url(port: 8080) == "http://[::1]:8080")
        #expect(listen("localhost").url(port: 80) == "http://localhost:80")
        let tls = ServerSettings(host: "::", port: 0, tlsCertificatePath: "c", tlsKeyPath: "k")
        #expect(tls.url(port: 8443) == "https://[::]:8443")
    }

    @Test("the request log has every request's line once the server has stopped, the last included")
    func logComplete() async throws {
        let runner = try CLIRunner("serve-log")
        let logPath = runner.root + "/serve.log"
        let server = try await ServeProcess(environment: runner.environment, folder: runner.root, logPath: logPath)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let http = ServerClient(client: client, port: server.port)
        let requests = 40
        do {
            for _ in 0..<requests - 1 { #expect(try await http.send(.GET, "/healthz").status == 200) }
            // The last one just before the SIGTERM: its line may still be queued when the stop begins.
            #expect(try await http.send(.GET, "/v1/me").status == 401)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
        #expect(await server.stop().status == 0)
        let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
        }
        let logged = lines.filter { $0["message"] as? String == "request" }
        #expect(logged.count == requests, "one line per request: \(lines)")
        #expect(
            logged.filter { $0["path"] as? String == "/healthz" && $0["status"] as? String == "200" }.count == requests
                - 1)
        #expect(logged.last?["path"] as? String == "/v1/me")
        #expect(logged.last?["status"] as? String == "401")
    }

    @Test("a server its test drops without stop() (a test that threw) is stopped, not left running")
    func droppedServerStops() async throws {
        let runner = try CLIRunner("serve-dropped")
        var server: ServeProcess? = try await ServeProcess(environment: runner.environment, folder: runner.root)
        let pid = try #require(server?.processIdentifier)
        #expect(kill(pid, 0) == 0, "running before the drop")
        server = nil
        #expect(try await processEnds(pid, within: 30), "pid \(pid) still runs after its ServeProcess was dropped")
    }

    @Test("a bad address is config_invalid (exit 8); one in use or not up is cannot_listen (exit 11), creating nothing")
    func cannotListen() async throws {
        let runner = try CLIRunner("serve-cannot-listen")
        let outOfRange = try await runner.run(["serve", "--port", "70000", "--json"])
        #expect(outOfRange.status == 8)
        #expect(outOfRange.stdout.contains(#""code":"config_invalid""#))
        #expect(outOfRange.stdout.contains("'server.port': 70000 is out of range"), "\(outOfRange.stdout)")
        #expect(outOfRange.stdout.contains("(set by --port)"), "\(outOfRange.stdout)")
        let negative = try await runner.run(["serve", "--port", "-1"])
        #expect(negative.status == 8)
        #expect(negative.stderr.contains("'server.port': -1 is out of range"), "\(negative.stderr)")
        let store = runner.root + "/data/accounts/accounts.sqlite"
        #expect(!FileManager.default.fileExists(atPath: store), "a bad port is refused before the store is opened")

        let server = try await ServeProcess(environment: runner.environment, folder: runner.root)
        // Another store's location: the port's refusal must come before it is created.
        let otherStore = runner.root + "/other.sqlite"
        let taken = try await runner.run(["serve", "--port", "\(server.port)", "--store", otherStore, "--json"])
        #expect(await server.stop().status == 0)
        #expect(taken.status == 11, "its own status, which the systemd unit restarts")
        #expect(taken.errorCode == "cannot_listen")
        #expect(
            taken.stdout.contains("127.0.0.1:\(server.port) is already in use by another process"), "\(taken.stdout)")
        #expect(!FileManager.default.fileExists(atPath: otherStore), "a server that cannot listen creates no store")

        let foreign = try await runner.run(
            ["serve", "--host", "203.0.113.5", "--port", "8080", "--store", otherStore, "--json"])
        #expect(foreign.status == 11)
        #expect(foreign.stdout.contains("203.0.113.5 is not an address of this host"), "\(foreign.stdout)")
        #expect(!FileManager.default.fileExists(atPath: otherStore))
        let unknown = try await runner.run(
            ["serve", "--port", "0"], environment: ["ACCOUNTS_SERVER_HOST": "not_a_host!"])
        #expect(unknown.status == 8)
        #expect(
            unknown.stderr.contains(
                "'server.host': 'not_a_host!' is not an IP address or a name this host can resolve"),
            "\(unknown.stderr)")
    }

    @Test("the web pages are served by default and switched off by server.web_pages")
    func webPagesSetting() async throws {
        let runner = try CLIRunner("serve-pages")
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            for (enabled, expected) in [(nil, 200), ("false", 404)] {
                var environment = runner.environment
                environment["ACCOUNTS_SERVER_WEB_PAGES"] = enabled
                let server = try await ServeProcess(environment: environment, folder: runner.root)
                let http = ServerClient(client: client, port: server.port)
                let start = try await http.send(.GET, "/signup")
                #expect(start.status == expected, "server.web_pages=\(enabled ?? "default")")
                #expect(try await http.send(.GET, "/healthz").status == 200, "the API stays either way")
                #expect(await server.stop().status == 0)
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// Two servers on one store: what one does, the other sees at once.
    static func twoHosts(environment: [String: String], folder: String) async throws {
        let first = try await ServeProcess(environment: environment, folder: folder)
        let second = try await ServeProcess(environment: environment, folder: folder)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let a = ServerClient(client: client, port: first.port)
            let b = ServerClient(client: client, port: second.port)
            let token = try #require(try await a.send(.POST, "/v1/signup", json: Self.signUp).token)
            #expect(try await b.send(.GET, "/v1/me", token: token).status == 200, "a session made on one host")
            let other = try #require(try await b.send(.POST, "/v1/login", json: Self.login).token)
            #expect(try await a.send(.POST, "/v1/logout", token: other).status == 200)
            #expect(try await b.send(.GET, "/v1/me", token: other).code == "not_signed_in", "a logout on the other")
            let third = try #require(try await a.send(.POST, "/v1/login", json: Self.login).token)
            let changed = try await b.send(
                .POST, "/v1/password",
                json: #"{"current_password":"Tangerine-Kayak-42","new_password":"Quokka-Lantern-77"}"#, token: token)
            #expect(changed.status == 200)
            #expect(try await a.send(.GET, "/v1/me", token: third).code == "not_signed_in", "revoked by the change")
            #expect(try await a.send(.GET, "/v1/me", token: token).status == 200)
        } catch {
            try await client.shutdown()
            _ = await first.stop()
            _ = await second.stop()
            throw error
        }
        try await client.shutdown()
        #expect(await first.stop().status == 0)
        #expect(await second.stop().status == 0)
    }

    @Test("the server's secret: made 0600 at first start, shared by two servers, a file without a key refused and kept")
    func secretFile() async throws {
        let runner = try CLIRunner("serve-secret")
        let path = runner.root + "/state/accounts/server-secret"
        let first = try await ServeProcess(environment: runner.environment, folder: runner.root)
        let second = try await ServeProcess(environment: runner.environment, folder: runner.root)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let key = try String(contentsOfFile: path, encoding: .utf8)
        #expect(key.wholeMatch(of: /[0-9a-f]{64}\n/) != nil)
        // A form shown by one server is accepted by the other: they sign with one key.
        let shown = PageClient(port: first.port)
        let posted = PageClient(port: second.port)
        _ = try await shown.get("/signup")
        posted.setCookie("accounts_form", shown.cookie("accounts_form"))
        let created = try await posted.post(
            "/signup",
            [
                ("email", "leesoon7@example.com"), ("password", "Tangerine-Kayak-42"),
                ("confirmation", "Tangerine-Kayak-42"), ("nickname", "이순신"),
            ], token: .some(shown.formToken))
        try await shown.shutdown()
        try await posted.shutdown()
        #expect(created.status == 303, "\(created.html)")
        #expect(await first.stop().status == 0)
        #expect(await second.stop().status == 0)
        try "not a key\n".write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try await runner.run(["serve", "--port", "0", "--json"])
        #expect(refused.status == 8)
        #expect(refused.errorCode == "config_invalid")
        #expect(refused.stdout.contains("server.secret_file"), "\(refused.stdout)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a key\n", "left as it is")
    }

    @Test("jwt access tokens need server.public_url (their issuer): without it the server does not start")
    func jwtNeedsIssuer() async throws {
        let runner = try CLIRunner("serve-jwt")
        let refused = try await runner.run(
            ["serve", "--port", "0", "--json"], environment: ["ACCOUNTS_SESSION_ACCESS_TOKENS": "jwt"])
        #expect(refused.status == 8 && refused.errorCode == "config_invalid")
        #expect(refused.stdout.contains("server.public_url"), "\(refused.stdout)")
        #expect(!FileManager.default.fileExists(atPath: runner.storePath), "no store made")
    }

    @Test("two servers on one SQLite file serve the same accounts and sessions")
    func twoHostsSQLite() async throws {
        let runner = try CLIRunner("serve-two-sqlite")
        try await Self.twoHosts(environment: runner.environment, folder: runner.root)
    }

    @Test(
        "two servers on one PostgreSQL schema serve the same accounts and sessions",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func twoHostsPostgres() async throws {
        let runner = try CLIRunner("serve-two-postgres")
        let schema = PostgresTestServer.uniqueSchema("serve")
        let environment = runner.environment.merging(PostgresTestServer.cliEnvironment(schema: schema)) { $1 }
            .merging(["ACCOUNTS_BACKEND": "postgres"]) { $1 }
        try await PostgresTestServer.run {
            try await Self.twoHosts(environment: environment, folder: runner.root)
        } thenCleanUp: {
            await PostgresTestServer.drop(schema: schema)
        }
    }
}
