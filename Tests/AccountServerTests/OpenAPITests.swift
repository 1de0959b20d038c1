import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountServer
import AccountTestSupport
import BackendTestSupport
import Foundation
import Hummingbird
import MemoryBackend
import NIOHTTP1
import Testing

/// The OpenAPI document and the code cannot drift: the router has exactly its operations, and
/// the committed `docs/openapi.json` is the document the server serves. (schemathesis, run by
/// scripts/test.sh, checks live answers against it.)
@Suite("OpenAPI document")
struct OpenAPITests {
    static let committed = PackageFiles.path("docs/openapi.json")

    @Test("the router serves exactly the operations the document describes")
    func routesMatch() async throws {
        let memory = MemoryBackendDescriptor()
        let repository = try await memory.open(
            BackendConfiguration(location: "openapi-routes", values: memory.defaultValues))
        let service = AccountService(
            repository: repository, hasher: Argon2idPasswordHasher.fastForTests, strength: ZxcvbnStrengthEstimator(),
            digester: SHA256TokenDigester(), random: SodiumRandomSource())
        let router = Router(context: AccountRequestContext.self)
        AccountAPI(service: service, backendName: "memory").addRoutes(to: router)
        let routes = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" })
        // HEAD twins every GET (HTTP requires it, `getWithHead`); the document, like most, lists the GETs.
        let heads = routes.filter { $0.hasPrefix("HEAD ") }
        #expect(heads.map { "GET" + $0.dropFirst(4) }.sorted() == routes.filter { $0.hasPrefix("GET ") }.sorted())
        let routed = routes.subtracting(heads)
        let document = try await LiveServer.with(Backends.sqlite) { server in
            try await server.send(.GET, "/openapi.json")
        }
        #expect(document.status == 200)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(document.text.utf8)) as? [String: Any])
        #expect(object["openapi"] as? String == "3.1.0")
        let paths = try #require(object["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        #expect(documented.count > 10, "the document lists every route")
        #expect(routed.map(Self.normalized).sorted() == documented.map(Self.normalized).sorted())
        try await repository.close()
    }

    static func normalized(_ route: String) -> String {
        let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
        let path = "/" + parts[1].split(separator: "/").joined(separator: "/")
        return parts[0] + " " + path
    }

    /// The document as a JSON object, read from the committed copy.
    static func document() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: committed))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("every 400 names its reasons by code, and those beyond the schema are among them")
    func badRequestReasons() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let components = try #require(document["components"] as? [String: Any])
        let responses = try #require(components["responses"] as? [String: [String: Any]])
        var checked = 0
        for (path, operations) in paths {
            for (method, value) in operations {
                let operation = try #require(value as? [String: Any])
                let answers = try #require(operation["responses"] as? [String: Any])
                guard let badRequest = answers["400"] as? [String: Any] else {
                    #expect(operation["x-rules-beyond-schema"] == nil, "\(method) \(path) has no 400")
                    continue
                }
                let name = try #require((badRequest["$ref"] as? String)?.split(separator: "/").last.map(String.init))
                let response = try #require(responses[name], "\(name)")
                let description = try #require(response["description"] as? String)
                let text = String(decoding: try JSONSerialization.data(withJSONObject: response), as: UTF8.self)
                let codes = try Self.codeEnum(in: response)
                #expect(codes.contains("invalid_request"), "\(method) \(path)")
                for code in codes {
                    #expect(description.contains("`\(code)`"), "\(name) describes \(code)")
                }
                let beyond = try #require(operation["x-rules-beyond-schema"] as? [String], "\(method) \(path)")
                #expect(Set(beyond).isSubset(of: codes), "\(method) \(path): \(beyond) not all in \(codes)")
                #expect(!beyond.contains("invalid_request"), "a malformed body is never beyond the schema")
                #expect(text.contains("beyond this schema") == !beyond.isEmpty, "\(name)")
                checked += 1
            }
        }
        #expect(
            checked == 22,
            "the seventeen operations that take a body or a code, the logout's scope, a provider sign-in's start and callbacks, and Strapi's ticket"
        )
    }

    /// The `enum` of the error code in a 400 response's schema (native `code`, or Strapi's
    /// `error.details.code`).
    static func codeEnum(in response: [String: Any]) throws -> Set<String> {
        let content = try #require(response["content"] as? [String: Any])
        let json = try #require(content["application/json"] as? [String: Any])
        let schema = try #require(json["schema"] as? [String: Any])
        let parts = try #require(schema["allOf"] as? [[String: Any]])
        let narrowing = try #require(parts.last?["properties"] as? [String: Any])
        if let code = narrowing["code"] as? [String: Any] {
            return Set(try #require(code["enum"] as? [String]))
        }
        let error = try #require((narrowing["error"] as? [String: Any])?["properties"] as? [String: Any])
        let details = try #require((error["details"] as? [String: Any])?["properties"] as? [String: Any])
        return Set(try #require((details["code"] as? [String: Any])?["enum"] as? [String]))
    }

    @Test("every link leads to an operation of the document, with the session token it made")
    func links() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operationIDs: Set<String> = []
        var links: [(from: String, link: [String: Any])] = []
        for (path, operations) in paths {
            for (method, value) in operations {
                let operation = try #require(value as? [String: Any])
                if let id = operation["operationId"] as? String { operationIDs.insert(id) }
                for (status, answer) in try #require(operation["responses"] as? [String: Any]) {
                    for (_, link) in (answer as? [String: Any])?["links"] as? [String: [String: Any]] ?? [:] {
                        links.append(("\(method) \(path) \(status)", link))
                    }
                }
            }
        }
        #expect(links.count >= 10, "sign-up and login lead on, natively and in Strapi's routes")
        for (from, link) in links {
            let target = try #require(link["operationId"] as? String, "\(from)")
            #expect(operationIDs.contains(target), "\(from) → \(target)")
            if let parameters = link["parameters"] as? [String: String], let bearer = parameters["header.Authorization"]
            {
                // A new session's token, or (from a signed-in read) the token the read was made with.
                #expect(
                    ["Bearer {$response.body#/token}", "Bearer {$response.body#/jwt}", "$request.header.Authorization"]
                        .contains(bearer),
                    "\(from) → \(target)")
            }
        }
    }

    @Test("/openapi.json serves docs/openapi.json byte for byte (the EmbedOpenAPIDocument plugin embeds it)")
    func committedCopy() async throws {
        let served = try await LiveServer.with(Backends.sqlite) { server in
            try await server.send(.GET, "/openapi.json").text
        }
        let committed = try String(contentsOfFile: Self.committed, encoding: .utf8)
        #expect(committed == served + "\n", "docs/openapi.json differs from the served document")
    }

    @Test("a device token as the server issues it matches the document's DeviceToken pattern")
    func deviceTokenPattern() throws {
        let components = try #require(try Self.document()["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: [String: Any]])
        let pattern = try #require(schemas["DeviceToken"]?["pattern"] as? String)
        let tokens = DeviceTokens(key: HMACKey.random(using: SodiumRandomSource()))
        let profile = AccountProfile(
            UserRecord(
                id: UserID(rawValue: String(repeating: "ab", count: 16)), email: "leesoon7@example.com",
                nickname: "이순신", passwordHash: "", createdAt: Timestamp(millisecondsSince1970: 1_796_367_790_691),
                number: 7))
        let token = tokens.issue(for: profile)
        let regex = try NSRegularExpression(pattern: pattern)
        let whole = NSRange(token.startIndex..., in: token)
        #expect(regex.firstMatch(in: token, range: whole)?.range == whole, "\(token) against \(pattern)")
    }
}
