import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountProviders
import AccountServer
import AccountServerSettings
import AccountTestSupport
import AccountTokens
import AccountWeb
import AsyncHTTPClient
import BackendTestSupport
import Foundation
import Hummingbird
import InMemoryLogging
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The real server on a free loopback port over a fresh store of one backend, driven over
/// HTTP; stopped gracefully (and the store closed) when the test's body returns.
struct LiveServer {
    let port: Int
    let client: HTTPClient
    let repository: any UserRepository
    let clock: ManualClock
    let log: CapturedLog
    /// The server's recovery flows (its outbox's mail is composed through them).
    let recovery: RecoveryService
    /// With `accessTokens`, the signer of the server's access tokens (on `clock`), whose keys
    /// are in ``signingKeyFile``.
    var accessTokens: JWTAccessTokens? = nil
    /// The file of the signing keys (in the test's scratch folder).
    var signingKeyFile: String = ""
    /// Starts the graceful shutdown now (the harness waits for it to finish after the body).
    let stop: @Sendable () async -> Void

    /// Sends one request (see ``ServerClient/send(_:_:json:token:headers:contentType:)``).
    func send(
        _ method: HTTPMethod, _ path: String, json: String? = nil, token: String? = nil,
        headers: [(String, String)] = [], contentType: String = "application/json"
    ) async throws -> ServerClient.Reply {
        try await ServerClient(client: client, port: port).send(
            method, path, json: json, token: token, headers: headers, contentType: contentType)
    }

    /// The `iss` of a test server's access tokens.
    static let issuer = "https://accounts.example.com"

    /// Runs `body` against a server over a new store of `backend` in a scratch folder.
    ///
    /// With `minimumFreeDiskBytes`, `/healthz` and `/metrics` measure the disk under the store's
    /// files against that minimum, as `accounts serve` does with `server.health_min_free_mib`
    /// (nothing for a backend whose store is not in files here); without it, they measure nothing.
    static func with<T: Sendable>(
        _ backend: any BackendDescriptor,
        limits: ClientLimits = ClientLimits(
            signUpsPerMinute: 1_000, loginsPerMinute: 1_000, passwordChecksPerMinute: 1_000),
        trustedProxies: [String] = [],
        monitoringClients: [String] = ["127.0.0.1", "::1"],
        gate: HashingGate = HashingGate(concurrency: 0, queueLimit: 64),
        hasher: any PasswordHasher = Argon2idPasswordHasher.fastForTests,
        maxBodyBytes: Int = 65_536,
        corsOrigins: [String] = [],
        deadline: RequestDeadline = .seconds(60),
        webPages: Bool = false,
        secureCookies: Bool = false,
        embedded: Bool = false,
        minimumFreeDiskBytes: Int64? = nil,
        requireVerifiedEmail: Bool = false,
        accessTokens: Bool = false,
        providers: SignInProviders = .none,
        _ body: @Sendable (LiveServer) async throws -> T
    ) async throws -> T {
        let scratch = try ScratchFolder("server-\(backend.name)")
        let folder = scratch.path
        return try await PostgresTestServer.run {
            let configuration = PostgresTestServer.configuration(
                backend, folder: folder, name: backend.defaultStoreName)
            let repository = try await backend.open(configuration)
            let clock = ManualClock()
            var service = AccountService(
                repository: repository, hasher: hasher, strength: ZxcvbnStrengthEstimator(),
                digester: SHA256TokenDigester(), random: SodiumRandomSource(), clock: clock,
                requireVerifiedEmail: requireVerifiedEmail)
            let signingKeyFile = folder + "/keys/signing-keys.json"
            let signer =
                accessTokens
                ? try await JWTAccessTokens(
                    keyFile: signingKeyFile, issuer: Self.issuer, audience: "accounts",
                    tokenLifetimeSeconds: SessionPolicy().accessTokenLifetimeSeconds, clock: clock) : nil
            if let signer { service = service.signingAccessTokens(with: signer) }
            // As `accounts serve` does: the disk under a store's files, when they are on this host.
            let storeDisk = minimumFreeDiskBytes.flatMap { minimum in
                backend.storesInFiles ? StoreDiskSpace(path: configuration.location, minimumFreeBytes: minimum) : nil
            }
            var settings = limits.settings
            settings.trustedProxies = trustedProxies
            settings.monitoringClients = monitoringClients
            settings.maxBodyBytes = maxBodyBytes
            settings.corsOrigins = corsOrigins
            settings.secureCookies = secureCookies
            let api = AccountAPI(
                service: service, backendName: backend.name, settings: settings, storeDisk: storeDisk, clock: clock,
                gate: gate, deadline: deadline, providers: providers)
            let log = CapturedLog()
            defer { _ = scratch }
            let result = try await run(api: api, log: log, webPages: webPages, embedded: embedded) {
                port, client, stop in
                try await body(
                    LiveServer(
                        port: port, client: client, repository: repository, clock: clock, log: log,
                        recovery: api.recovery, accessTokens: signer, signingKeyFile: signingKeyFile, stop: stop))
            }
            try await repository.close()
            return result
        } thenCleanUp: {
            await PostgresTestServer.cleanUp(backend, folder: folder)
        }
    }

    /// Runs `body` against a server over `repository` as given (a stand-in that counts or fails
    /// calls, say), with generous client limits and a manual clock; the caller closes the store.
    static func run<T: Sendable>(
        repository: any UserRepository, hasher: any PasswordHasher = Argon2idPasswordHasher.fastForTests,
        gate: HashingGate = HashingGate(concurrency: 0, queueLimit: 64), log: CapturedLog = CapturedLog(),
        _ body: @Sendable (ServerClient) async throws -> T
    ) async throws -> T {
        let service = AccountService(
            repository: repository, hasher: hasher, strength: ZxcvbnStrengthEstimator(),
            digester: SHA256TokenDigester(), random: SodiumRandomSource(), clock: ManualClock())
        let api = AccountAPI(
            service: service, backendName: "memory",
            settings: ClientLimits(signUpsPerMinute: 100, loginsPerMinute: 100, passwordChecksPerMinute: 100).settings,
            gate: gate)
        return try await run(api: api, log: log) { port, client, _ in
            try await body(ServerClient(client: client, port: port))
        }
    }

    /// Runs the application until `body` returns, then shuts it down gracefully: `accounts
    /// serve`'s, or with `embedded` a plain Hummingbird application that mounts the routes
    /// beside one of its own (`GET /app`) and adds `UnparsableRequestHandler`, as the
    /// AccountServer documentation tells an embedder to.
    static func run<T: Sendable>(
        api: AccountAPI, log: CapturedLog, webPages: Bool = false, embedded: Bool = false,
        _ body: @Sendable (Int, HTTPClient, @escaping @Sendable () async -> Void) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "test.server") { _ in log.handler() }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application: any Service
        if embedded {
            let router = Router(context: AccountRequestContext.self)
            router.get("app") { _, _ in "the application's own route" }
            api.addRoutes(to: router)
            application = Application(
                router: router,
                server: .http1(
                    configuration: .init(additionalChannelHandlers: [UnparsableRequestHandler(logger: logger)])),
                configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
                logger: logger)
        } else {
            let pages = webPages ? try AccountWebPages(api: api) : nil
            application = try AccountServerApplication.make(
                api: api, logger: logger, moreRoutes: { pages?.addRoutes(to: $0, notFoundPage: false) },
                notFoundPage: pages.map { $0.notFoundPage(for:) },
                onListening: { port in portContinuation.yield(port) })
        }
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body(port, client) { await group.triggerGracefulShutdown() })
            } catch {
                outcome = .failure(error)
            }
            try await client.shutdown()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try outcome.get()
        }
    }
}

/// The per-client limits a test sets, on top of the settings every test server has: loopback,
/// any free port (`accounts serve`'s defaults otherwise).
struct ClientLimits {
    var signUpsPerMinute: Int
    var loginsPerMinute: Int
    var passwordChecksPerMinute: Int

    /// The server settings with these limits.
    var settings: ServerSettings {
        ServerSettings(
            host: "127.0.0.1", port: 0, signUpsPerMinute: signUpsPerMinute, loginsPerMinute: loginsPerMinute,
            passwordChecksPerMinute: passwordChecksPerMinute)
    }
}

/// Every log line the server wrote (swift-log's in-memory handler), to check what it never
/// contains.
struct CapturedLog: Sendable {
    private let memory = InMemoryLogHandler()

    func handler() -> any LogHandler { memory }

    /// Each entry as "level message key=value …".
    var text: String {
        memory.entries.map { entry in
            let fields = entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(entry.level) \(entry.message) " + fields.joined(separator: " ")
        }.joined(separator: "\n")
    }
}

/// Requests to a server on a loopback port.
struct ServerClient {
    let client: HTTPClient
    let port: Int

    /// An answer: status, headers and the body as text and as a JSON object.
    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let text: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:] }
        var code: String? { json["code"] as? String }
        var token: String? { json["token"] as? String }
    }

    /// Sends one request; `json` is sent as `application/json` unless `contentType` says otherwise.
    func send(
        _ method: HTTPMethod, _ path: String, json: String? = nil, token: String? = nil,
        headers: [(String, String)] = [], contentType: String = "application/json"
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let json {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(string: json))
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, text: String(buffer: body))
    }

}
