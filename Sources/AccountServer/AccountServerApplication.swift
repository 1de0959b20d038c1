import Hummingbird
import Logging
import NIOCore

/// How `accounts serve` listens.
public struct ListenSettings: Sendable {
    /// The address to bind.
    public var host: String
    /// The port (0: any free one).
    public var port: Int
    /// A connection idle this long is closed.
    public var idleTimeoutSeconds: Int
    /// Browser origins (`https://app.example.com`) whose pages may call the API; none by default.
    public var corsOrigins: [String]

    /// - Parameters: see the properties.
    public init(host: String, port: Int, idleTimeoutSeconds: Int, corsOrigins: [String] = []) {
        self.host = host
        self.port = port
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.corsOrigins = corsOrigins
    }
}

/// The Hummingbird application of `accounts serve`: the account routes behind the request log,
/// and the Prometheus metrics at `/metrics`, listening where `listen` says. Run it with `runService()`: SIGTERM and SIGINT stop it
/// gracefully (no new connections, in-flight requests finished).
public enum AccountServerApplication {
    /// - Parameters:
    ///   - api: the routes and the service they share.
    ///   - listen: address, port and idle timeout.
    ///   - logger: the server's and the requests' logger.
    ///   - onListening: called with the bound port once the server accepts connections.
    public static func make(
        api: AccountAPI, listen: ListenSettings, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: AccountRequestContext.self)
        let metrics = ServerMetrics(gate: api.gate)
        router.add(middleware: RequestLogMiddleware(metrics: metrics))
        if !listen.corsOrigins.isEmpty { router.add(middleware: CORSMiddleware(origins: Set(listen.corsOrigins))) }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.emit())))
        }
        api.addRoutes(to: router)
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(listen.idleTimeoutSeconds)))),
            configuration: ApplicationConfiguration(
                address: .hostname(listen.host, port: listen.port), serverName: "AccountStore"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? listen.port) },
            logger: logger)
    }
}
