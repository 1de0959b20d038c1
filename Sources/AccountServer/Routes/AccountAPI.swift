public import AccountCore
public import AccountCrypto
import AccountJSON
public import AccountProviders
public import AccountServerSettings
import Foundation
import HTTPTypes
public import Hummingbird
import Logging
import NIOCore
import NIOFoundationCompat

/// The account routes over one `AccountService`: the native JSON API under `/v1`, Strapi's
/// users-permissions auth routes under `/api`, `/healthz`, and the OpenAPI document of them
/// all at `/openapi.json`. `accounts serve` mounts them;
/// a Hummingbird application can mount them in its own router, with its own repository:
///
/// ```swift
/// let api = AccountAPI(service: service, backendName: "mine")
/// let router = Router(context: AccountRequestContext.self)
/// api.addRoutes(to: router)
/// ```
///
/// One service (so one open repository) serves every request. Sign-up, login, password change
/// and withdrawal are limited per client, and their password hashes go through the
/// ``HashingGate``, all as ``settings`` say.
public struct AccountAPI: Sendable {
    /// The service every route calls: the one given, its hashes scheduled by the gate.
    public let service: AccountService
    /// The backend's name, for `/healthz`.
    public let backendName: String
    /// How the server listens and what it allows each client.
    public let settings: ServerSettings
    /// The disk under the store's files, which `/healthz` reports and checks (`nil`: a store
    /// elsewhere, such as a PostgreSQL server's).
    public let storeDisk: StoreDiskSpace?
    /// Signs and checks the device tokens of logins (`LoginThrottlePolicy`'s known devices).
    public let deviceTokens: DeviceTokens
    let limiter: ClientRateLimiter
    let gate: HashingGate
    let clientAddress: ClientAddress
    let monitoringClients: [IPAddressRange]
    let deadline: RequestDeadline
    package let serverKey: HMACKey
    /// Forgotten passwords and proven emails, over ``service``, with codes keyed by the
    /// server's secret.
    public let recovery: RecoveryService
    /// The outside providers users sign in with (none unless given).
    public let providers: SignInProviders
    let clock: any AccountClock
    let random: any RandomSource

    /// - Parameters:
    ///   - service: the service over the store all requests share.
    ///   - backendName: shown by `/healthz`.
    ///   - settings: how the server listens and what it allows each client: the per-client
    ///     tries per minute, the trusted proxies (whose `X-Forwarded-For` is believed), the
    ///     monitoring clients (the only ones that may read `/metrics` and the details of
    ///     `/healthz`), the hashing queue, the largest body and the deadline of a request that
    ///     checks or sets a password. An entry of a list that is not an IP address or a CIDR
    ///     block matches nothing; `accounts serve` refuses one when it reads its settings.
    ///   - storeDisk: the disk under the store's files, for `/healthz` and `/metrics`.
    ///   - serverKey: the secret that signs device tokens (and the web pages' form tokens):
    ///     ``ServerSecretFile`` keeps one; a random one lasts as long as this value.
    ///   - clock: the limits' clock.
    ///   - gate: the hashing queue, when not the one `settings` describe (a test's, held).
    ///   - deadline: the deadline, when not `settings.requestTimeoutSeconds` (a test's).
    ///   - recoveryPolicy: how long mailed codes work, and how many mails an address is sent.
    ///   - providers: the outside providers users may sign in with.
    ///   - random: where the states of provider sign-ins come from.
    public init(
        service: AccountService, backendName: String, settings: ServerSettings = ServerSettings(),
        storeDisk: StoreDiskSpace? = nil, serverKey: HMACKey = .random(), clock: any AccountClock = SystemClock(),
        gate: HashingGate? = nil, deadline: RequestDeadline? = nil, recoveryPolicy: RecoveryPolicy = RecoveryPolicy(),
        providers: SignInProviders = .none, random: any RandomSource = SodiumRandomSource()
    ) {
        self.providers = providers
        self.clock = clock
        self.random = random
        let gate = gate ?? HashingGate(concurrency: settings.hashingConcurrency, queueLimit: settings.hashingQueue)
        // The gate bounds the hashes themselves, whichever scheduler `service` came with.
        self.service = service.schedulingHashes(on: gate)
        self.backendName = backendName
        self.settings = settings
        self.storeDisk = storeDisk
        limiter = ClientRateLimiter(
            limits: [
                .signUp: settings.signUpsPerMinute, .login: settings.loginsPerMinute,
                .passwordCheck: settings.passwordChecksPerMinute,
            ], ipv6PrefixLength: settings.clientIPv6PrefixLength, clock: clock)
        deviceTokens = DeviceTokens(key: serverKey)
        self.serverKey = serverKey
        recovery = RecoveryService(
            accounts: self.service, codes: KeyedRequestCodes(key: serverKey), policy: recoveryPolicy)
        self.gate = gate
        clientAddress = ClientAddress(trustedProxies: settings.trustedProxies.compactMap(IPAddressRange.init))
        monitoringClients = settings.monitoringClients.compactMap(IPAddressRange.init)
        self.deadline = deadline ?? .seconds(settings.requestTimeoutSeconds)
    }

    /// The largest request body read.
    package var maxBodyBytes: Int { settings.maxBodyBytes }

    /// Adds every route to `router`, and a middleware that answers another method on one of
    /// these paths 405 with `Allow`, and an unknown path under `/v1` or `/api` 404 `not_found`
    /// (other paths are left to your router).
    public func addRoutes<Context: AccountRoutesContext>(to router: Router<Context>) {
        addRoutes(to: router, unknownPathsUnder: ["/v1", "/api"])
    }

    /// Adds every route; an unknown path under one of `namespaces` (`/`: every path, for a
    /// server whose paths are all the API's) is `notFoundPage`'s answer if it has one, else
    /// 404 `not_found`.
    ///
    /// The middleware is added after the routes, so Hummingbird puts it around the router's
    /// not-found answer only: a request a route takes never passes through it.
    func addRoutes<Context: AccountRoutesContext>(
        to router: Router<Context>, unknownPathsUnder namespaces: [String],
        notFoundPage: (@Sendable (Request) -> Response?)? = nil
    ) {
        addNativeRoutes(to: router.group("v1"))
        addNativeRecoveryRoutes(to: router.group("v1"))
        addProviderRoutes(to: router.group("v1"))
        addStrapiRoutes(to: router.group("api"))
        addStrapiRecoveryRoutes(to: router.group("api"))
        addStrapiProviderRoutes(to: router.group("api"))
        router.getWithHead("openapi.json") { _, _ in
            Response(
                status: .ok, headers: .jsonAnswer,
                body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        // With signed access tokens, the keys that check them (RFC 7517), for any service;
        // with opaque tokens there are none to publish (404 `not_found`).
        let signer = service.sessions.accessTokenSigner
        router.getWithHead(".well-known/jwks.json") { request, context in
            try await respond(request, context, style: .native) { _ in
                guard let signer else { throw RequestProblem(kind: .noSuchRoute) }
                var headers = HTTPFields.jsonAnswer
                // Short, so a rotation reaches the services that cache it within a minute.
                headers[.cacheControl] = "public, max-age=60"
                return Response(
                    status: .ok, headers: headers,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: await signer.keySet())))
            }
        }
        router.getWithHead("healthz") { request, context in
            // The status is everyone's (a load balancer's probe); what backend serves and how
            // much room its disk has are the monitoring clients' alone.
            let detailed = isMonitoringClient(request, context)
            return try await respond(request, context, style: .native) { _ in
                let free = try await probeStore(detailed: detailed)
                return json(detailed ? APIBody.health(backend: backendName, diskFreeBytes: free) : APIBody.done)
            }
        }
        // Strapi's own probe, which its clients call (strapi-client's `check_health()`): 204 and
        // Strapi's header when the store answers; the same probe as `/healthz`.
        router.getWithHead("_health") { request, context in
            try await respond(request, context, style: .strapi) { _ in
                _ = try await probeStore(detailed: false)
                return Response(status: .noContent, headers: [HTTPField.Name("strapi")!: "You are so French!"])
            }
        }
        var allowed: [String: [HTTPRequest.Method]] = [:]
        for route in router.routes {
            let path = "/" + route.path.description.split(separator: "/").joined(separator: "/")
            allowed[path, default: []].append(route.method)
        }
        router.add(
            middleware: UnknownRouteMiddleware(allowed: allowed, namespaces: namespaces, notFoundPage: notFoundPage))
    }

    /// Proves the store answers and its disk has room; returns the disk's free bytes, if
    /// measured. One lookup by email (an index read on every backend): a count would scan every
    /// user on each probe of a load balancer, and on SQLite drop the reader's cached pages. A
    /// full disk fails every sign-up and login (each writes a session) while reads still
    /// answer, so the probe measures it too.
    private func probeStore(detailed: Bool) async throws -> Int64? {
        _ = try await service.repository.user(email: "healthz-probe@example.invalid")
        let free = storeDisk?.availableBytes()
        if let storeDisk, let free, free < storeDisk.minimumFreeBytes {
            throw StoreDiskFull(availableBytes: free, minimumFreeBytes: storeDisk.minimumFreeBytes, detailed: detailed)
        }
        return free
    }

    // MARK: - Shared by both route families

    /// Runs `body` with the request's language; turns any error into the style's error body.
    /// A failure whose cause the client is not shown (a 500, a busy store) is logged with it
    /// (never a secret: errors carry none).
    func respond(
        _ request: Request, _ context: some RequestContext, style: APIFailure.Style,
        _ body: (Language) async throws -> Response
    ) async throws -> Response {
        let language = AcceptLanguage.language(from: request.headers[.acceptLanguage])
        do {
            return try await body(language)
        } catch {
            let failure = APIFailure(error, language: language, style: style)
            if failure.hidesCause {
                let cause = (error as? AccountError)?.message(.english) ?? String(describing: type(of: error))
                context.logger.error(
                    "request failed", metadata: ["code": .string(failure.code), "cause": .string(cause)])
            }
            throw failure
        }
    }

    /// Whether the request's client, as the per-client limits count it, may read `/metrics`
    /// and the details of `/healthz`.
    func isMonitoringClient(_ request: Request, _ context: some AccountRoutesContext) -> Bool {
        monitoringClients.containsAddress(
            clientAddress.resolve(peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor]))
    }

    /// Counts the try against the client's limit, then runs `body` on the hashing threads, within
    /// the deadline; its hashes wait for the gate's slots (through ``service``).
    package func limited<T: Sendable>(
        _ action: ClientRateLimiter.Action, _ request: Request, _ context: some AccountRoutesContext,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let client = clientAddress.resolve(
            peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor])
        try limiter.admit(action, client: client)
        let gate = gate
        return try await deadline.run { try await gate.offEventLoops(body) }
    }

    /// Where a login of `email` comes from, for the throttle: the client (see
    /// ``clientOrigin(_:_:)``), and the device `deviceToken` claims for that email with the
    /// account it was issued for, if any (the service holds it against the account it finds).
    package func loginOrigin(
        _ request: Request, _ context: some AccountRoutesContext, email: String, deviceToken: String?
    ) -> LoginOrigin {
        let normalized = (try? StoredEmail(email))?.normalized
        let claim = normalized.flatMap { deviceTokens.claim(in: deviceToken, for: $0) }
        return LoginOrigin(
            client: clientOrigin(request, context).client, device: claim?.device, account: claim?.account)
    }

    /// The request's client as the per-client limits count it (an IPv6 client is its
    /// network), for the throttle of a password typed in a signed-in session.
    package func clientOrigin(_ request: Request, _ context: some AccountRoutesContext) -> LoginOrigin {
        let client = clientAddress.resolve(peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor])
        return LoginOrigin(client: IPAddressRange.clientKey(client, ipv6PrefixLength: settings.clientIPv6PrefixLength))
    }

    /// The JSON body, read up to the limit and decoded. With `forms`, also a form body
    /// (`application/x-www-form-urlencoded` or `multipart/form-data`, as Strapi takes them),
    /// read as the JSON object of its fields and decoded the same way, with the same errors.
    func decode<Body: Decodable>(_ type: Body.Type, from request: Request, forms: Bool = false) async throws -> Body {
        let contentType = request.headers[.contentType] ?? ""
        let mediaType = contentType.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let form: FormRequestBody.Encoding?
        switch mediaType {
        case "application/json": form = nil
        case "application/x-www-form-urlencoded" where forms: form = .urlEncoded
        case "multipart/form-data" where forms:
            guard let boundary = MultipartForm.boundary(inContentType: contentType) else {
                throw RequestProblem(kind: .malformed(.notForm))
            }
            form = .multipart(boundary: boundary)
        default: throw RequestProblem(kind: .unsupportedMediaType(formsToo: forms))
        }
        if form == nil, let charset = Self.charset(of: contentType), charset != "utf-8" {
            throw RequestProblem(kind: .notUTF8JSON)
        }
        // A form any page can post without a preflight: one from another site's page is refused
        // before it is read, as the web pages refuse theirs.
        if form != nil, CrossSiteRequest.isCrossSite(request) { throw RequestProblem(kind: .crossSiteForm) }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodyBytes {
            throw RequestProblem(kind: .tooLarge(limit: maxBodyBytes))
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw RequestProblem(kind: .tooLarge(limit: maxBodyBytes))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Reading the body fails only when the client's connection ends or breaks before
            // the body does: a 400 for the client (if it still reads), never a store failure.
            throw RequestProblem(kind: .malformed(.cutShort))
        }
        guard buffer.readableBytes > 0 else { throw RequestProblem(kind: .malformed(.empty)) }
        if form == nil, !Self.isUTF8WithoutByteOrderMark(buffer.readableBytesView) {
            throw RequestProblem(kind: .notUTF8JSON)
        }
        let data =
            try form.map { try FormRequestBody.json(Array(buffer.readableBytesView), $0) } ?? Data(buffer: buffer)
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw RequestProblem(kind: .malformed(.missing(field: key.stringValue)))
        } catch let DecodingError.typeMismatch(_, context) {
            guard let field = context.codingPath.last?.stringValue else {
                throw RequestProblem(kind: .malformed(.notObject))
            }
            throw RequestProblem(kind: .malformed(.wrongType(field: field)))
        } catch let unexpected as UnexpectedField {
            throw RequestProblem(kind: .malformed(.unexpected(field: unexpected.field)))
        } catch let refused as RefusedDeviceName {
            throw RequestProblem(kind: .malformed(.badDeviceName(field: refused.field)))
        } catch let DecodingError.valueNotFound(_, context) {
            guard let field = context.codingPath.last?.stringValue else {
                throw RequestProblem(kind: .malformed(.notObject))
            }
            throw RequestProblem(kind: .malformed(.null(field: field)))
        } catch {
            throw RequestProblem(kind: .malformed(.notJSON))
        }
        if let repeated = JSONObjectKeys.firstRepeated(in: data) {
            throw RequestProblem(kind: .malformed(.repeated(field: repeated)))
        }
        return body
    }

    /// The `charset` parameter of a `Content-Type`, in lowercase, if it has one.
    static func charset(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                .lowercased()
        }
        return nil
    }

    /// Whether `bytes` are UTF-8 with no byte order mark: a UTF-16 or UTF-32 body starts with a
    /// BOM or a zero byte, neither of which is valid at the start of a JSON text in UTF-8.
    static func isUTF8WithoutByteOrderMark(_ bytes: some Collection<UInt8>) -> Bool {
        guard !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return false }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    /// `decode`, or `nil` for a request that sent no body (no length, or a length of 0, and
    /// not chunked), whatever its `Content-Type` says: for routes whose body is optional.
    func decodeIfSent<Body: Decodable>(_ type: Body.Type, from request: Request, forms: Bool = false) async throws
        -> Body?
    {
        let length = request.headers[.contentLength].flatMap(Int.init)
        if length == nil || length == 0, request.headers[.transferEncoding] == nil { return nil }
        return try await decode(type, from: request, forms: forms)
    }

    /// The name a new session keeps of its device: the client's own (checked by the body's
    /// decoder), else one read from its `User-Agent`.
    func deviceName(_ request: Request, given: String?) -> String {
        given ?? DeviceName.describing(userAgent: request.headers[.userAgent])
    }

    /// The bearer token of `Authorization`, if any (the service refuses a malformed one).
    func bearerToken(_ request: Request) -> String? {
        request.headers[.authorization].flatMap(Self.bearerToken(fromAuthorization:))
    }

    /// The credentials of `Bearer <token>` (the scheme in any case, spaces or tabs around the
    /// token), or `nil` for any other value. On the bytes: every authenticated request reads it,
    /// and Foundation's `trimmingCharacters` was a twentieth of a `GET /v1/me`.
    static func bearerToken(fromAuthorization value: String) -> String? {
        let bytes = value.utf8
        let scheme = "bearer".utf8
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ byte, letter in byte | 0x20 == letter })
        else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let rest = bytes.dropFirst(scheme.count)
        guard let first = rest.first, first == UInt8(ascii: " ") else { return nil }
        let start = rest.firstIndex { !isBlank($0) } ?? rest.endIndex
        var end = rest.endIndex
        while end > start, isBlank(rest[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return start < end ? String(value[start..<end]) : nil
    }

    func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields.jsonAnswer
        headers[.cacheControl] = "no-store"
        return Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: value.serialized())))
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
