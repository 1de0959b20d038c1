#if Server
    import Foundation
    import Hummingbird
    import Logging

    /// The HTTP baseline of the service benchmark: a bare Hummingbird route that answers every
    /// `GET /` with a constant JSON body the size of `/v1/me`'s, with no store, no token and no
    /// middleware, on the same machine and HTTP stack. The share of its requests/s that
    /// `accounts serve` reaches is what the account work costs.
    enum BaselineServer {
        static let body = #"""
            {"ok":true,"user":{"created_at_ms":1795418138209,"email":"leesoon7@example.com","email_verified":false,"id":"b412abc122961157fa535eba195e4b6a","nickname":"이순신","number":1},"welcome":"Welcome, 이순신."}
            """#

        static func run(port: Int) async throws {
            let router = Router()
            router.get("/") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
            }
            var logger = Logger(label: "baseline")
            logger.logLevel = .warning
            let application = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                onServerRunning: { channel in
                    let bound = channel.localAddress?.port ?? port
                    FileHandle.standardOutput.write(Data("Listening on http://127.0.0.1:\(bound)\n".utf8))
                }, logger: logger)
            try await application.runService()
        }
    }
#endif
