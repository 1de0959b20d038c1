#if Server
    import AccountBackendKit
    import AccountCore
    import AccountProviders
    import AccountServer
    import AccountServerSettings
    import AccountSettings
    import AccountWeb
    import ArgumentParser
    import Foundation
    import Hummingbird
    import AccountJSON
    import Logging

    /// Serve the accounts over HTTP until SIGTERM or SIGINT.
    struct ServeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the accounts over HTTP (web pages, native JSON API, Strapi auth routes, /healthz).",
            discussion: """
                Listens on server.host:server.port (default 127.0.0.1:8080) with one store shared by \
                every request: the web pages at / (unless server.web_pages is false), the JSON API \
                under /v1, Strapi's auth routes under /api, /healthz, /metrics and /openapi.json. \
                With server.tls_certificate and server.tls_key it speaks HTTPS. Prints \
                "Listening on http://HOST:PORT" (https with TLS; with --json the object \
                {"ok":true,"listening":URL,"port":PORT}) once it accepts connections; \
                SIGTERM or SIGINT stops it gracefully: no new connections, in-flight requests \
                finished, the store closed. One JSON log line per request goes to standard error.
                """)

        @OptionGroup var options: ServerCommandOptions

        func run() async throws {
            let json = options.base.json
            try await CommandContext.run(options) { context in
                let settings = context.settings.server
                // Requests hand their lines to the writer's thread and never wait for standard
                // error; what is still queued is written when the server stops.
                let log = LogLineWriter()
                defer { log.finish() }
                let logger = Logger(label: "accounts.serve") { JSONLinesLogHandler(label: $0, writer: log) }
                // Bad TLS files, and an address that cannot be listened on, are reported before
                // the store is opened (or created).
                _ = try settings.tls?.serverConfiguration()
                try await settings.probe()
                let serverKey = try ServerSecretFile.key(at: settings.secretFile)
                // A relay the client refuses is reported before the store is opened.
                let mailClient = try MailDelivery.client(context.settings.mail)
                let backend = context.settings.backend
                let signer = try await AccessTokenSigning.signer(context.settings)
                let providers = context.settings.providers
                try await SignInProviders.with(providers, publicURL: settings.publicURL) { providers in
                    try await context.withService(creating: true) { service in
                        let service = signer.map { service.signingAccessTokens(with: $0) } ?? service
                        let api = AccountAPI(
                            service: service, backendName: backend.name, settings: settings,
                            storeDisk: backend.descriptor.storesInFiles
                                ? StoreDiskSpace(
                                    path: backend.location, minimumFreeBytes: Int64(settings.healthMinFreeMiB) << 20)
                                : nil,
                            serverKey: serverKey, recoveryPolicy: context.settings.recovery, providers: providers)
                        let pages = settings.webPages ? try AccountWebPages(api: api) : nil
                        let mail = MailLoop()
                        defer { mail.stop() }
                        let sweep = ExpiredRecordsSweep()
                        sweep.start(service.repository, logger: logger)
                        defer { sweep.stop() }
                        let mailSettings = context.settings.mail
                        let application = try AccountServerApplication.make(
                            api: api, logger: logger, logWriter: log,
                            moreRoutes: { pages?.addRoutes(to: $0, notFoundPage: false) },
                            notFoundPage: pages.map { $0.notFoundPage(for:) },
                            onListening: { port in
                                let publicURL =
                                    settings.publicURL.isEmpty ? settings.url(port: port) : settings.publicURL
                                if let mailClient {
                                    mail.start(
                                        MailDelivery.sender(
                                            mailClient, mailSettings, recovery: api.recovery, publicURL: publicURL),
                                        logger: logger)
                                }
                                // With --json every line on standard output is one JSON object: this
                                // one, then the reply when the server stops.
                                let line =
                                    json
                                    ? JSONValue.object([
                                        ("ok", .bool(true)), ("listening", .string(settings.url(port: port))),
                                        ("port", .int(Int64(port))),
                                    ]).serialized()
                                    : "Listening on \(settings.url(port: port))"
                                // Unbuffered, so a script that waits for this line sees it at once.
                                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                            })
                        do {
                            try await application.runService()
                        } catch {
                            throw settings.listenFailure(for: error)
                        }
                    }
                }
                return CommandReply(lines: [context.messages.serverStopped], fields: [("stopped", .bool(true))])
            }
        }
    }
#endif
