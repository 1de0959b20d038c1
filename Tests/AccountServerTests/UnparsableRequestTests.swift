import AccountTestSupport
import BackendTestSupport
import Foundation
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import AccountServer

/// Requests SwiftNIO's HTTP parser refuses get the API's JSON error, a request id and a log
/// line, where Hummingbird alone answers an empty 400 and records nothing.
@Suite("Requests HTTP cannot parse")
struct UnparsableRequestTests {
    @Test("a URL over the parser's limit is 431 headers_too_large, logged without the URL")
    func longURL() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let marker = "secret-looking-query-value"
            let path = "/v1/me?q=" + marker + String(repeating: "a", count: 100_000)
            let reply = try await server.send(.GET, path)
            #expect(reply.status == 431)
            #expect(reply.code == "headers_too_large")
            #expect(
                reply.json["message"] as? String
                    == "The request's URL and headers are too long (at most 81920 bytes together).")
            #expect(reply.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
            let id = try #require(reply.headers.first(name: "X-Request-Id"))
            let line = try #require(server.log.text.split(separator: "\n").first { $0.contains(id) })
            #expect(line.contains("refused=headers_too_large") && line.contains("status=431"))
            #expect(!server.log.text.contains(marker))
            let metrics = try await server.send(.GET, "/metrics").text
            #expect(metrics.contains(#"route="unparsed""#) && metrics.contains(#"status="431""#))
        }
    }

    @Test("every operation of the OpenAPI document lists this 431, in the native shape")
    func documented() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: OpenAPITests.committed)))
                as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        let operations = paths.flatMap { path, operations in
            operations.map { ("\($0.key.uppercased()) \(path)", $0.value) }
        }
        #expect(operations.count > 10)
        // Refused before routing: a Strapi route's client gets the native body too.
        let without431 = operations.filter { _, operation in
            let responses = operation["responses"] as? [String: [String: Any]]
            return responses?["431"]?["$ref"] as? String != "#/components/responses/HeadersTooLarge"
        }
        #expect(without431.map(\.0).sorted() == [])
        let components = try #require(document["components"] as? [String: [String: [String: Any]]])
        let response = try #require(components["responses"]?["HeadersTooLarge"])
        let schema = (response["content"] as? [String: [String: [String: String]]])?["application/json"]?["schema"]
        #expect(schema?["$ref"] == "#/components/schemas/Failure")
    }

    @Test("an application that mounts the routes and adds the handler answers the same")
    func embedded() async throws {
        try await LiveServer.with(Backends.sqlite, embedded: true) { server in
            let reply = try await server.send(.GET, "/app?q=" + String(repeating: "a", count: 100_000))
            #expect(reply.status == 431)
            #expect(reply.code == "headers_too_large")
            let id = try #require(reply.headers.first(name: "X-Request-Id"))
            #expect(server.log.text.contains(id))
            let garbage = try await Self.exchange(port: server.port, "HELLO THERE\r\n\r\n")
            #expect(garbage.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && garbage.contains(#""code":"invalid_request""#))
        }
    }

    /// The parser's limits, which the 431's documentation names.
    static let parserLimits = HTTP1Channel.Configuration.DecoderConfiguration()

    @Test("more header fields than the parser takes is 431 too")
    func tooManyHeaders() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let headers = (0...Self.parserLimits.maxHeaderFieldCount).map { ("X-Filler-\($0)", "1") }
            let reply = try await server.send(.GET, "/healthz", headers: headers)
            #expect(reply.status == 431)
            #expect(reply.code == "headers_too_large")
        }
    }

    @Test("the limits the error codes article and the OpenAPI document name are the parser's")
    func documentedLimits() throws {
        let grouped = IntegerFormatStyle<Int>().locale(Locale(identifier: "en_US"))
        let bytes = "over \(Self.parserLimits.maxHeaderListSize.formatted(grouped)) bytes"
        let fields = "over \(Self.parserLimits.maxHeaderFieldCount.formatted(grouped))"
        let row = try #require(
            try String(contentsOfFile: PackageFiles.errorCodesArticle, encoding: .utf8).split(separator: "\n").first {
                $0.contains("`headers_too_large`")
            })
        #expect(row.contains(bytes) && row.contains(fields + " header fields"), "ErrorCodes.md: \(row)")
        // The served document, which OpenAPITests keeps equal to docs/openapi.json.
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let responses = try #require((document["components"] as? [String: Any])?["responses"] as? [String: Any])
        let described = responses.values.compactMap { ($0 as? [String: Any])?["description"] as? String }
            .filter { $0.contains("`headers_too_large`") }
        #expect(!described.isEmpty)
        for description in described {
            #expect(description.contains(bytes) && description.contains(fields + " fields"), "\(description)")
        }
    }

    @Test("bytes that are not HTTP are 400 invalid_request, and the connection is closed")
    func notHTTP() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let answer = try await Self.exchange(port: server.port, "HELLO THERE\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(answer.contains("\r\nConnection: close\r\n"))
            #expect(
                answer.hasSuffix(
                    #"{"code":"invalid_request","message":"The request is not valid HTTP/1.1.","ok":false}"#))
        }
    }

    @Test("garbage after a whole request leaves that request's answer whole")
    func garbageAfterARequest() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            // The parser fails while the first request is still being answered: that answer
            // must come whole, and the refusal only after it (Hummingbird's own 400 here).
            let answer = try await Self.exchange(
                port: server.port, "GET /healthz HTTP/1.1\r\nHost: here\r\n\r\nHELLO THERE\r\n\r\n")
            let responses = answer.components(separatedBy: "HTTP/1.1 ")
            #expect(responses.count == 3, "\(answer)")
            #expect(responses[1].hasPrefix("200 OK\r\n"))
            #expect(responses[1].contains(#""ok":true"#))
            #expect(responses.last?.hasPrefix("400 Bad Request\r\n") == true)
        }
    }

    /// Writes `request` to the server as it is and reads until the server closes the
    /// connection (or 60 s pass, when it is closed from here and the reply is what came).
    static func exchange(port: Int, _ request: String) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let guardTimer = channel.channel.eventLoop.scheduleTask(in: .seconds(60)) {
            channel.channel.close(promise: nil)
        }
        defer { guardTimer.cancel() }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: request))
            var reply = ""
            for try await part in inbound { reply += String(buffer: part) }
            return reply
        }
    }
}
