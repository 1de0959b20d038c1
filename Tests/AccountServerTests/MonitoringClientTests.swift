import AccountBackendKit
import AccountServer
import AccountTestSupport
import BackendTestSupport
import Foundation
import NIOHTTP1
import StandardBackends
import Testing

/// `/metrics` and the details of `/healthz` (the backend, the store disk's free space) are for
/// the addresses in `server.monitoring_clients`; everyone else gets `/healthz`'s status alone.
@Suite("Monitoring clients")
struct MonitoringClientTests {
    /// A documentation address (RFC 5737) no test connects from: the loopback client is not it.
    static let elsewhere = ["192.0.2.1"]
    static let signUp = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42","nickname":"이순신"}"#

    @Test("a client not listed gets 403 forbidden from /metrics, GET and HEAD, in its language; it is logged")
    func metricsRefused() async throws {
        try await LiveServer.with(Backends.sqlite, monitoringClients: Self.elsewhere) { server throws in
            let english = try await server.send(.GET, "/metrics")
            #expect(english.status == 403)
            #expect(english.code == "forbidden")
            #expect(english.json["ok"] as? Bool == false)
            #expect((english.json["message"] as? String)?.contains("server.monitoring_clients") == true)
            #expect(!english.text.contains("accounts_"), "no figure leaks: \(english.text)")
            let korean = try await server.send(.GET, "/metrics", headers: [("Accept-Language", "ko")])
            #expect((korean.json["message"] as? String)?.contains("주소만") == true, "\(korean.text)")
            let head = try await server.send(.HEAD, "/metrics")
            #expect(head.status == 403)
            #expect(head.text.isEmpty)
            #expect(
                server.log.text.split(separator: "\n").contains {
                    $0.contains("path=/metrics") && $0.contains("status=403")
                })
        }
    }

    @Test(
        "to a client not listed, /healthz is the status alone: no backend, no free space",
        arguments: BackendRegistry.embedded.descriptors)
    func healthWithoutDetails(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend, monitoringClients: Self.elsewhere, minimumFreeDiskBytes: 1) {
            server throws in
            let reply = try await server.send(.GET, "/healthz")
            #expect(reply.status == 200)
            #expect(reply.json.keys.sorted() == ["ok"], "\(reply.text)")
            #expect(reply.json["ok"] as? Bool == true)
        }
    }

    @Test("a full disk is still 503 store_disk_full to a client not listed, without the figures")
    func diskFullWithoutFigures() async throws {
        try await LiveServer.with(Backends.sqlite, monitoringClients: Self.elsewhere, minimumFreeDiskBytes: 1 << 60) {
            server throws in
            #expect(try await server.send(.POST, "/v1/signup", json: Self.signUp).status == 201)
            let reply = try await server.send(.GET, "/healthz")
            #expect(reply.status == 503)
            #expect(reply.code == "store_disk_full")
            #expect(reply.headers.first(name: "Retry-After") == "30")
            let message = try #require(reply.json["message"] as? String)
            #expect(message.contains("server.health_min_free_mib"))
            #expect(!message.contains("MiB free") && !message.contains(where: \.isNumber), "\(message)")
            let korean = try await server.send(.GET, "/healthz", headers: [("Accept-Language", "ko")])
            #expect((korean.json["message"] as? String).map { !$0.contains(where: \.isNumber) } == true)
        }
    }

    @Test("behind a trusted proxy the client the proxy names is matched, against a CIDR block")
    func throughProxy() async throws {
        try await LiveServer.with(
            Backends.sqlite, trustedProxies: ["127.0.0.0/8"], monitoringClients: ["10.0.0.0/8"]
        ) { server throws in
            let inside = [("X-Forwarded-For", "203.0.113.5, 10.20.30.40")]
            let metrics = try await server.send(.GET, "/metrics", headers: inside)
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("accounts_hashing_queue_depth"))
            let health = try await server.send(.GET, "/healthz", headers: inside)
            #expect(health.json["backend"] as? String == "sqlite", "\(health.text)")
            // The proxy itself is not a monitoring client, and what a client claims before the
            // proxy's own entry is never believed.
            #expect(try await server.send(.GET, "/metrics").status == 403)
            let claimed = [("X-Forwarded-For", "10.20.30.40, 203.0.113.5")]
            #expect(try await server.send(.GET, "/metrics", headers: claimed).status == 403)
        }
    }

    @Test("from a peer that is not a trusted proxy, X-Forwarded-For opens nothing")
    func forgedForwardedFor() async throws {
        try await LiveServer.with(Backends.sqlite, monitoringClients: ["10.0.0.0/8"]) { server throws in
            let forged = [("X-Forwarded-For", "10.20.30.40")]
            #expect(try await server.send(.GET, "/metrics", headers: forged).status == 403)
            #expect(try await server.send(.GET, "/healthz", headers: forged).json["backend"] == nil)
        }
    }
}
