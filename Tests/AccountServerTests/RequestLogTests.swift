import BackendTestSupport
import Foundation
import NIOHTTP1
import Testing

/// The request log's client and request id behind a proxy: believed from a trusted one only.
@Suite("Request log")
struct RequestLogTests {
    @Test("behind a trusted proxy the line names the forwarded client via the proxy, and keeps the proxy's request id")
    func trustedProxy() async throws {
        try await LiveServer.with(Backends.sqlite, trustedProxies: ["127.0.0.1"]) { server in
            let forwarded = try await server.send(
                .GET, "/healthz",
                headers: [("X-Forwarded-For", "198.51.100.9, 203.0.113.7"), ("X-Request-Id", "edge-7f3a9c")])
            #expect(forwarded.headers.first(name: "X-Request-Id") == "edge-7f3a9c")
            let line = try #require(
                server.log.text.split(separator: "\n").last { $0.contains("hb.request.id=edge-7f3a9c") })
            #expect(line.contains("client=203.0.113.7"), "the address the proxy saw: \(line)")
            #expect(line.contains("via=127.0.0.1"), "\(line)")
            for unusable in ["", "has space", String(repeating: "a", count: 129), #"quote""#, "탭"] {
                let reply = try await server.send(.GET, "/healthz", headers: [("X-Request-Id", unusable)])
                let id = try #require(reply.headers.first(name: "X-Request-Id"))
                #expect(
                    id != unusable && !id.isEmpty && id.allSatisfy(\.isHexDigit),
                    "\(unusable.debugDescription) is replaced by the server's own id")
            }
        }
    }

    @Test("from any other peer X-Forwarded-For and X-Request-Id are ignored")
    func untrustedPeer() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let reply = try await server.send(
                .GET, "/healthz", headers: [("X-Forwarded-For", "203.0.113.7"), ("X-Request-Id", "forged-id")])
            let id = try #require(reply.headers.first(name: "X-Request-Id"))
            #expect(id != "forged-id")
            let line = try #require(server.log.text.split(separator: "\n").last { $0.contains("hb.request.id=\(id)") })
            #expect(line.contains("client=127.0.0.1"), "\(line)")
            #expect(!line.contains("203.0.113.7") && !line.contains("via="), "\(line)")
        }
    }
}
