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

    @Test("/openapi.json serves docs/openapi.json byte for byte (the EmbedOpenAPIDocument plugin embeds it)")
    func committedCopy() async throws {
        let served = try await LiveServer.with(Backends.sqlite) { server in
            try await server.send(.GET, "/openapi.json").text
        }
        let committed = try String(contentsOfFile: Self.committed, encoding: .utf8)
        #expect(committed == served + "\n", "docs/openapi.json differs from the served document")
    }
}
