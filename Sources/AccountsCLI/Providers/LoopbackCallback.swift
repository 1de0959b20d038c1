#if Server
    import AccountCore
    import Hummingbird
    import Logging
    import NIOCore
    import ServiceLifecycle

    /// The address a native app gives a provider to come back to (RFC 8252 §7.3): a server on
    /// 127.0.0.1 and a port the system picks, for one request to `/callback`, which it answers
    /// with `page` before it stops.
    enum LoopbackCallback {
        /// Starts the server, tells `announce` its callback address, and returns the query of
        /// the first request to `/callback` with that address, or throws `providerFlowInvalid`
        /// after `timeout`.
        static func receive(
            page: String, timeout: Duration, announce: @Sendable (String) async throws -> Void
        ) async throws -> (query: [String: String], address: String) {
            let (queries, queryContinuation) = AsyncStream.makeStream(of: [String: String].self)
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let router = Router()
            router.get("callback") { request, _ in
                var query: [String: String] = [:]
                for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
                queryContinuation.yield(query)
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: page + "\n")))
            }
            var logger = Logger(label: "accounts.login")
            logger.logLevel = .critical
            let application = Application(
                router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
                logger: logger)
            let group = ServiceGroup(
                configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
            // The server stops gracefully once the answer came: the page for the browser is
            // written before it closes (cancelling it instead cut that answer off).
            let server = Task { try await group.run() }
            var portIterator = ports.makeAsyncIterator()
            guard let port = await portIterator.next() else {
                server.cancel()
                throw CancellationError()
            }
            let address = "http://127.0.0.1:\(port)/callback"
            let outcome: Result<[String: String], any Error>
            do {
                try await announce(address)
                outcome = .success(try await firstQuery(queries, within: timeout))
            } catch {
                outcome = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await server.value
            return (try outcome.get(), address)
        }

        /// The first query `queries` gives, or `providerFlowInvalid` after `timeout`.
        private static func firstQuery(_ queries: AsyncStream<[String: String]>, within timeout: Duration)
            async throws -> [String: String]
        {
            try await withThrowingTaskGroup(of: [String: String]?.self) { tasks in
                defer { tasks.cancelAll() }
                tasks.addTask {
                    var iterator = queries.makeAsyncIterator()
                    return await iterator.next()
                }
                tasks.addTask {
                    try await Task.sleep(for: timeout)
                    throw AccountError.providerFlowInvalid(reason: "no answer came back within ten minutes")
                }
                while let next = try await tasks.next() {
                    if let query = next { return query }
                }
                throw CancellationError()
            }
        }
    }
#endif
