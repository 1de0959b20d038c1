public import AccountCore
public import AccountServerSettings
public import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import NIOCore
public import NIOSSL

extension ServerSettings {
    /// The files of `tlsCertificatePath` and `tlsKeyPath` when both are set: the server
    /// speaks HTTPS itself; `nil` for plain HTTP (behind a TLS proxy, say).
    public var tls: TLSFiles? {
        guard let tlsCertificatePath, let tlsKeyPath else { return nil }
        return TLSFiles(certificatePath: tlsCertificatePath, keyPath: tlsKeyPath)
    }

    /// `https` with TLS files, else `http`.
    public var scheme: String { tls == nil ? "http" : "https" }

    /// The server's URL once it listens on `port`: `http://127.0.0.1:8080`, an IPv6 address in
    /// brackets (`http://[::1]:8080`), as a browser or curl takes it.
    public func url(port: Int) -> String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// The PEM files of a server that speaks HTTPS itself.
public struct TLSFiles: Sendable {
    /// The certificate chain, leaf first.
    public var certificatePath: String
    /// The private key of the leaf certificate.
    public var keyPath: String

    /// - Parameters: see the properties.
    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// The server's TLS configuration (TLS 1.2 at least, NIOSSL's default ciphers).
    /// - Throws: `configInvalid` naming the file that cannot be read or used, and why.
    public func serverConfiguration() throws(AccountError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw .configInvalid(
                key: "server.tls_certificate", reason: "cannot read a PEM certificate from \(certificatePath): \(error)"
            )
        }
        guard !chain.isEmpty else {
            throw .configInvalid(key: "server.tls_certificate", reason: "\(certificatePath) holds no certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw .configInvalid(
                key: "server.tls_key", reason: "cannot read a PEM private key from \(keyPath): \(error)")
        }
        return TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }
}

/// The Hummingbird application of `accounts serve`: the account routes behind the request log,
/// and the Prometheus metrics at `/metrics` (for the API's monitoring clients only), listening
/// where the API's ``AccountAPI/settings`` say (address, port, idle timeout, CORS, TLS). Run it with `runService()`: SIGTERM and SIGINT stop it gracefully (no
/// new connections, in-flight requests finished).
public enum AccountServerApplication {
    /// - Parameters:
    ///   - api: the routes, the service they share, and the server's settings.
    ///   - logger: the server's and the requests' logger.
    ///   - logWriter: the writer behind `logger`'s lines, if one is, whose dropped lines
    ///     `/metrics` counts.
    ///   - moreRoutes: adds other routes (the web pages) behind the same log and metrics.
    ///   - notFoundPage: an answer of its own for a path no route has (the web pages' HTML
    ///     page for a browser); the JSON 404 `not_found` when it has none.
    ///   - onListening: called with the bound port once the server accepts connections.
    /// - Throws: `configInvalid` when the TLS files cannot be read or used.
    public static func make(
        api: AccountAPI, logger: Logger, logWriter: LogLineWriter? = nil,
        moreRoutes: (Router<AccountRequestContext>) -> Void = { _ in },
        notFoundPage: (@Sendable (Request) -> Response?)? = nil,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let listen = api.settings
        let router = Router(context: AccountRequestContext.self)
        let metrics = ServerMetrics(gate: api.gate, storeDisk: api.storeDisk, log: logWriter)
        let census = PasswordSchemeCensus()
        router.add(middleware: RequestLogMiddleware(metrics: metrics, clientAddress: api.clientAddress))
        if !listen.corsOrigins.isEmpty { router.add(middleware: CORSMiddleware(origins: Set(listen.corsOrigins))) }
        if listen.tls != nil, listen.hstsMaxAgeSeconds > 0 {
            router.add(middleware: StrictTransportMiddleware(maxAgeSeconds: listen.hstsMaxAgeSeconds))
        }
        router.getWithHead("metrics") { request, context in
            try await api.respond(request, context, style: .native) { _ in
                guard api.isMonitoringClient(request, context) else { throw RequestProblem(kind: .monitoringOnly) }
                await census.refreshIfStale(api.service.repository)
                let outbox = try await api.service.repository.outboxSummary()
                let text = metrics.emit(legacySchemes: census.counts, outbox: outbox, now: api.recovery.now())
                return Response(
                    status: .ok, headers: .answer("text/plain; version=0.0.4; charset=utf-8"),
                    body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
            }
        }
        moreRoutes(router)
        // Every path is the API's here: one nothing answers is the JSON 404 `not_found` a client
        // can read, or `notFoundPage`'s answer (a browser's GET gets the web pages' own page).
        // Handed to the API's not-found middleware rather than added as one before the routes,
        // where Hummingbird would wrap every request in it.
        api.addRoutes(to: router, unknownPathsUnder: ["/"], notFoundPage: notFoundPage)
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [UnparsableRequestHandler(logger: logger, metrics: metrics)],
                idleTimeout: .seconds(Int64(listen.idleTimeoutSeconds))))
        let server =
            try listen.tls.map { files in
                try HTTPServerBuilder.tls(http1, tlsConfiguration: files.serverConfiguration())
            } ?? http1
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(listen.host, port: listen.port), serverName: "AccountStore"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? listen.port) },
            logger: logger)
    }
}
