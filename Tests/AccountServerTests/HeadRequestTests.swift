import AccountServer
import AccountWeb
import BackendTestSupport
import NIOHTTP1
import Testing

/// HEAD is answered wherever GET is (RFC 9110, 9.3.2): load balancers and uptime checks probe
/// with it. The answer is the GET's status and headers without the body.
@Suite("HEAD requests")
struct HeadRequestTests {
    @Test("HEAD answers each GET route with its status and headers, Content-Length included, and no body")
    func headMirrorsGet() async throws {
        try await LiveServer.with(Backends.sqlite, webPages: true) { server in
            let token = try #require(try await server.send(.POST, "/v1/signup", json: AbuseTests.signUp).token)
            let probes: [(path: String, token: String?, status: Int)] = [
                ("/healthz", nil, 200), ("/openapi.json", nil, 200), ("/metrics", nil, 200),
                ("/v1/me", token, 200), ("/api/users/me", token, 200), ("/v1/me", nil, 401),
                ("/api/users/me", nil, 401), ("/login", nil, 200), ("/assets/app.css", nil, 200),
            ]
            for probe in probes {
                let get = try await server.send(.GET, probe.path, token: probe.token)
                let head = try await server.send(.HEAD, probe.path, token: probe.token)
                let label = "HEAD \(probe.path)\(probe.token == nil ? "" : " signed in")"
                #expect(get.status == probe.status, "\(label): GET answered \(get.status)")
                #expect(head.status == get.status, "\(label)")
                #expect(head.text.isEmpty, "\(label) has no body")
                #expect(!get.text.isEmpty, "\(label): the GET has a body to leave out")
                if probe.path != "/metrics" {
                    // The metrics page grows with every request, so its length changes between the two.
                    #expect(head.headers.first(name: "Content-Length") == "\(get.text.utf8.count)", "\(label)")
                }
                #expect(head.headers.first(name: "Content-Type") == get.headers.first(name: "Content-Type"), "\(label)")
            }
            #expect(try await server.send(.GET, "/v1/me", token: token).status == 200, "the session is intact")
        }
    }

    @Test("HEAD on a path without GET is a 405 that names the path's methods")
    func headWithoutGet() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let login = try await server.send(.HEAD, "/v1/login")
            #expect(login.status == 405)
            #expect(login.headers.first(name: "Allow") == "POST")
            #expect(login.text.isEmpty)
            let wrongMethod = try await server.send(.DELETE, "/healthz")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers.first(name: "Allow") == "GET, HEAD")
            #expect(try await server.send(.HEAD, "/v1/nothing-here").status == 404)
        }
    }
}
