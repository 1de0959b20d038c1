import AccountCore
import BackendTestSupport
import Foundation
import NIOHTTP1
import Testing

/// What no route takes is answered in the API's own error shapes: native under `/v1` and
/// elsewhere, Strapi's under `/api`, so a client reads a wrong path or method like any other
/// error.
@Suite("Unknown routes and methods")
struct RouteErrorTests {
    @Test("an unknown path is 404 not_found, in each API's shape and the request's language")
    func unknownPath() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let native = try await server.send(.GET, "/v1/nowhere")
            #expect(native.status == 404)
            #expect(native.code == "not_found")
            #expect(native.json["ok"] as? Bool == false)
            #expect(
                native.json["message"] as? String == "There is no such route; /openapi.json lists the API's routes.")
            #expect(native.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
            let korean = try await server.send(.POST, "/v1", json: "{}", headers: [("Accept-Language", "ko")])
            #expect(korean.status == 404)
            #expect(korean.json["message"] as? String == "이 경로는 없습니다. API의 경로는 /openapi.json 에 있습니다.")
            let strapi = try await server.send(.POST, "/api/auth/nowhere", json: #"{"email":"a@b.cd"}"#)
            #expect(strapi.status == 404)
            #expect(strapi.json.keys.contains("data") && strapi.json["data"] is NSNull)
            let error = try #require(strapi.json["error"] as? [String: Any])
            #expect(error["status"] as? Int == 404)
            #expect(error["name"] as? String == "NotFoundError")
            #expect((error["details"] as? [String: Any])?["code"] as? String == "not_found")
            // `accounts serve` owns every path; a browser's GET gets the web pages' own page
            // (`WebPagesTests.notFound`).
            for path in ["/nowhere", "/V1/me", "/v2/me"] {
                let elsewhere = try await server.send(.GET, path, headers: [("Accept", "application/json")])
                #expect(elsewhere.status == 404, "\(path)")
                #expect(elsewhere.code == "not_found", "\(path)")
            }
            let head = try await server.send(.HEAD, "/nowhere")
            #expect(head.status == 404)
            #expect(head.text.isEmpty)
        }
    }

    @Test("mounted in an application's own router, the routes leave that application's other paths alone")
    func embedded() async throws {
        try await LiveServer.with(Backends.sqlite, embedded: true) { server in
            let own = try await server.send(.GET, "/app")
            #expect(own.status == 200)
            #expect(own.text == "the application's own route")
            let elsewhere = try await server.send(.GET, "/nowhere")
            #expect(elsewhere.status == 404)
            #expect(elsewhere.text.isEmpty, "a path outside /v1 and /api is the application's to answer")
            let api = try await server.send(.GET, "/v1/nowhere")
            #expect(api.status == 404)
            #expect(api.code == "not_found")
            let me = try await server.send(.GET, "/v1/me")
            #expect(me.status == 401)
            #expect(me.code == "not_signed_in")
        }
    }

    @Test("a method a path does not take is 405 with Allow, in each API's shape")
    func wrongMethod() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let native = try await server.send(.PUT, "/v1/signup", json: "{}")
            #expect(native.status == 405)
            #expect(native.code == "method_not_allowed")
            #expect(native.json["message"] as? String == "PUT is not allowed here.")
            #expect(native.headers.first(name: "Allow") == "POST")
            let strapi = try await server.send(.GET, "/api/auth/local/")
            #expect(strapi.status == 405)
            #expect(strapi.headers.first(name: "Allow") == "POST")
            let error = try #require(strapi.json["error"] as? [String: Any])
            #expect(error["name"] as? String == "MethodNotAllowedError")
            #expect(error["status"] as? Int == 405)
            #expect(try await server.repository.userCount() == 0)
        }
    }

    @Test("Strapi's error names: a wrong content type is UnsupportedMediaTypeError")
    func strapiMediaType() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let reply = try await server.send(
                .POST, "/api/auth/local", json: "identifier=a&password=b", contentType: "text/plain")
            #expect(reply.status == 415)
            let error = try #require(reply.json["error"] as? [String: Any])
            #expect(error["name"] as? String == "UnsupportedMediaTypeError")
        }
    }

    @Test("every answer, errors included, carries X-Request-Id: its log line's request id")
    func requestID() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let replies = [
                try await server.send(.GET, "/healthz"),
                try await server.send(.GET, "/v1/me"),
                try await server.send(.POST, "/v1/login", json: "[]"),
                try await server.send(.GET, "/v1/nowhere"),
                try await server.send(.DELETE, "/healthz"),
                try await server.send(.HEAD, "/healthz"),
            ]
            #expect(replies.map(\.status) == [200, 401, 400, 404, 405, 200])
            let ids = replies.compactMap { $0.headers.first(name: "X-Request-Id") }
            #expect(ids.count == replies.count, "every answer has one")
            #expect(Set(ids).count == ids.count, "each its own")
            let log = server.log.text
            for (reply, id) in zip(replies, ids) {
                #expect(log.contains("hb.request.id=\(id)"), "the log line of the \(reply.status) answer")
            }
        }
    }
}
