import AccountCore
import AccountTestSupport
import MemoryBackend
import NIOHTTP1
import Synchronization
import Testing

/// A store busy in another process is a 503 the client may retry, whose body, like a 500's,
/// never names the store's file or quotes its engine: those go to the server's log.
@Suite("Busy store responses")
struct BusyStoreResponseTests {
    static let password = "Tangerine-Kayak-42"
    static let detail = "/srv/accounts/accounts.sqlite: database is locked (SQLite code 5)"

    @Test("a busy store is 503 with Retry-After in both API shapes, its file and engine only in the log")
    func busyStore() async throws {
        let busy = Mutex(false)
        let repository = ObservedRepository(MemoryUserRepository()) { call in
            if call == "user(email:)", busy.withLock({ $0 }) { throw AccountError.storeBusy(detail: "\(Self.detail)") }
        }
        let log = CapturedLog()
        try await LiveServer.run(repository: repository, log: log) { server in
            let login = #"{"email":"leesoon7@example.com","password":"\#(Self.password)"}"#
            let signUp = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"leesoon7@example.com","password":"\#(Self.password)","nickname":"이순신"}"#)
            #expect(signUp.status == 201)
            busy.withLock { $0 = true }
            let native = try await server.send(.POST, "/v1/login", json: login)
            #expect(native.status == 503)
            #expect(native.headers.first(name: "Retry-After") == "1")
            #expect(native.code == "store_busy")
            #expect(
                native.json["message"] as? String == "The server's store is busy with other work; try again shortly.")
            let korean = try await server.send(.POST, "/v1/login", json: login, headers: [("Accept-Language", "ko")])
            #expect(korean.json["message"] as? String == "서버 저장소가 다른 작업으로 바쁩니다. 잠시 후 다시 시도하세요.")
            let strapi = try await server.send(
                .POST, "/api/auth/local", json: #"{"identifier":"leesoon7@example.com","password":"\#(Self.password)"}"#
            )
            #expect(strapi.status == 503)
            let error = strapi.json["error"] as? [String: Any]
            #expect(error?["name"] as? String == "ServiceUnavailableError")
            for reply in [native, korean, strapi] {
                #expect(!reply.text.contains("/srv/") && !reply.text.contains("SQLite"), "\(reply.text)")
            }
        }
        #expect(log.text.contains(Self.detail), "the cause is in the server's log: \(log.text)")
    }
}
