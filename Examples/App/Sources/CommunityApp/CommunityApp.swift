import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountServer
import AccountServerSettings
import AccountWeb
import Hummingbird
import HummingbirdCore
import Logging
import SQLiteBackend

/// The community app's server: AccountStore's API, Strapi routes and web pages over one SQLite
/// store, and a route of the app's own that greets the signed-in member.
public struct CommunityApp: Sendable {
    /// The account rules over the app's store; the app's own code calls it too.
    public let service: AccountService
    private let repository: any UserRepository

    /// Opens (or creates) the SQLite store at `storePath`. `hasher` is Argon2id at the
    /// recommended cost unless a test passes a cheaper one.
    public init(storePath: String, hasher: Argon2idPasswordHasher = .recommended) async throws {
        // snippet.service
        let repository = try await SQLiteBackendDescriptor().open(BackendConfiguration(location: storePath))
        let service = AccountService(
            repository: repository, hasher: hasher, strength: ZxcvbnStrengthEstimator(),
            digester: SHA256TokenDigester(), random: SodiumRandomSource())
        // snippet.end
        self.repository = repository
        self.service = service
    }

    /// The application listening on `host:port` (port 0: any free one). `secureCookies` marks
    /// the web pages' cookies `Secure`: set it whenever the site is reached over HTTPS.
    public func application(
        host: String = "127.0.0.1", port: Int = 8080, secureCookies: Bool = false, logger: Logger
    ) throws -> some ApplicationProtocol {
        // snippet.routes
        let api = AccountAPI(
            service: service, backendName: "sqlite", settings: ServerSettings(secureCookies: secureCookies))
        let pages = try AccountWebPages(api: api)
        let router = Router(context: AccountRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        pages.addRoutes(to: router)
        api.addRoutes(to: router)
        // snippet.end
        router.getWithHead("/community/welcome") { request, _ in
            try await welcome(request)
        }
        // snippet.server
        let server = HTTPServerBuilder.http1(
            configuration: .init(additionalChannelHandlers: [UnparsableRequestHandler(logger: logger)]))
        let application = Application(
            router: router, server: server, configuration: .init(address: .hostname(host, port: port)),
            logger: logger)
        // snippet.end
        return application
    }

    /// The app's own route: the welcome screen's greeting for the member whose session token
    /// the request bears, in Korean when the client asks for it; 401 for anyone else.
    private func welcome(_ request: Request) async throws -> String {
        let authorization = request.headers[.authorization] ?? ""
        let token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst("Bearer ".count)) : nil
        let language: Language = request.headers[.acceptLanguage]?.hasPrefix("ko") == true ? .korean : .english
        // snippet.start
        switch try await service.sessions.start(token: token) {
        case .member(let profile):
            return profile.welcome(language)  // "이순신 님 환영합니다."
        case .guest:
            throw HTTPError(.unauthorized, message: "Sign up or log in first.")
        }
        // snippet.end
    }

    /// Closes the store.
    public func close() async throws {
        try await repository.close()
    }
}
