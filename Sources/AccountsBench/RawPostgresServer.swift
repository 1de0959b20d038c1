#if Server && PostgreSQL
    import CSodium
    import Foundation
    import Hummingbird
    import Logging
    import PostgresNIO

    /// The yardstick of `GET /v1/me` on PostgreSQL in `make bench-serve`: Hummingbird and
    /// postgres-nio alone, with no AccountStore code, doing the work a signed-in read cannot skip
    /// — read the bearer token, hash it (SHA-256, libsodium), run the same session-and-user query
    /// as a prepared statement on a pool of the same size, and answer the same JSON. A bare route
    /// measures the HTTP stack; this one also pays the database's round trip, so the share of its
    /// requests a second that `accounts serve` reaches is what the account code costs.
    ///
    /// It reads the store `accounts serve` made: `ACCOUNTS_POSTGRES_HOST`, `_PORT`, `_USER`,
    /// `_PASSWORD`, `_DATABASE`, `_SCHEMA` and `_POOL_SIZE`, as the server does.
    enum RawPostgresServer {
        /// The query behind the store's signed-in read, for one token digest.
        struct Lookup: PostgresPreparedStatement {
            static let name = "raw_bench_signed_in_v3"
            static let sql = """
                SELECT s.token_sha256, s.user_id, s.created_at_ms, s.last_seen_at_ms, s.expires_at_ms, s.idle_timeout_s, \
                s.remember, u.id, u.email, u.nickname, u.password_hash, u.created_at_ms, u.password_changed_at_ms, \
                u.failed_login_count, u.last_failed_login_at_ms, u.number, u.email_verified_at_ms \
                FROM sessions s LEFT JOIN users u ON u.id = s.user_id \
                WHERE s.token_sha256 = ANY($1) AND current_schema() = $2
                """
            typealias Row = PostgresRow
            let digests: [String]
            let schema: String

            func makeBindings() -> PostgresBindings {
                var bindings = PostgresBindings(capacity: 2)
                bindings.append(digests)
                bindings.append(schema)
                return bindings
            }

            func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
        }

        static func run(port: Int) async throws {
            let environment = ProcessInfo.processInfo.environment
            func setting(_ name: String) throws -> String {
                guard let value = environment["ACCOUNTS_POSTGRES_\(name)"] else {
                    throw BenchOptions.UsageError("serve-raw-postgres needs ACCOUNTS_POSTGRES_\(name)")
                }
                return value
            }
            let schema = try setting("SCHEMA")
            var configuration = PostgresClient.Configuration(
                host: try setting("HOST"), port: Int(try setting("PORT")) ?? 5432, username: try setting("USER"),
                password: environment["ACCOUNTS_POSTGRES_PASSWORD"], database: try setting("DATABASE"), tls: .disable)
            configuration.options.maximumConnections = Int(try setting("POOL_SIZE")) ?? 8
            configuration.options.keepAliveBehavior = nil
            configuration.options.additionalStartupParameters = [("search_path", schema)]
            let logger = {
                var logger = Logger(label: "raw-postgres")
                logger.logLevel = .warning
                return logger
            }()
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            _ = sodium_init()

            let router = Router()
            router.get("/v1/me") { request, _ -> Response in
                guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
                    return Response(status: .unauthorized)
                }
                let token = Array(header.utf8.dropFirst(7))
                var digest = [UInt8](repeating: 0, count: 32)
                _ = crypto_hash_sha256(&digest, token, UInt64(token.count))
                let hex = String(unsafeUninitializedCapacity: 64) { text in
                    let digits = Array("0123456789abcdef".utf8)
                    for (index, byte) in digest.enumerated() {
                        text[2 * index] = digits[Int(byte >> 4)]
                        text[2 * index + 1] = digits[Int(byte & 0x0f)]
                    }
                    return 64
                }
                let rows = try await client.execute(Lookup(digests: [hex], schema: schema), logger: logger)
                for try await row in rows {
                    let cells = row.makeRandomAccess()
                    guard let id = try cells[7].decode(String?.self),
                        try cells[4].decode(Int64.self) > Int64(Date().timeIntervalSince1970 * 1000)
                    else { break }
                    let email = try cells[8].decode(String.self)
                    let nickname = String(buffer: try cells[9].decode(ByteBuffer.self))
                    let created = try cells[11].decode(Int64.self)
                    let number = try cells[15].decode(Int64.self)
                    let verified = try cells[16].decode(Int64?.self) != nil
                    let body =
                        #"{"ok":true,"user":{"created_at_ms":\#(created),"email":\#(quoted(email)),"email_verified":\#(verified),"id":\#(quoted(id)),"nickname":\#(quoted(nickname)),"number":\#(number)},"welcome":\#(quoted("Welcome, \(nickname)."))}"#
                    return Response(
                        status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
                }
                return Response(status: .unauthorized)
            }
            let application = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                services: [client],
                onServerRunning: { channel in
                    let bound = channel.localAddress?.port ?? port
                    FileHandle.standardOutput.write(Data("Listening on http://127.0.0.1:\(bound)\n".utf8))
                }, logger: logger)
            try await application.runService()
        }

        /// A JSON string: quotes, backslashes and control characters escaped.
        static func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
    }
#endif
