import AccountTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client's fault is answered as one (4xx), never as the store's: a body cut short raises
/// no 500, no error-level log line and no 5xx in `/metrics`, on the native, Strapi and form
/// routes alike.
@Suite("Client faults")
struct ClientFaultTests {
    @Test(
        "a body shorter than its Content-Length is a 400, not the store's 500",
        arguments: [
            ("/v1/login", "application/json"), ("/api/auth/local", "application/json"),
            ("/v1/signup", "application/json"), ("/signup", "application/x-www-form-urlencoded"),
        ])
    func cutShort(_ path: String, _ contentType: String) async throws {
        let runner = try CLIRunner("client-fault")
        let logPath = runner.root + "/serve.log"
        let server = try await ServeProcess(environment: runner.environment, folder: runner.root, logPath: logPath)
        let answer = try LoopbackExchange.send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: 100\r\n\r\n{}",
            port: server.port, halfClose: true)
        let metrics = try LoopbackExchange.send(
            "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: server.port, halfClose: true)
        #expect(await server.stop().status == 0)
        let statusLine = answer.split(separator: "\r\n").first.map(String.init) ?? ""
        #expect(statusLine == "HTTP/1.1 400 Bad Request", "\(answer)")
        #expect(!answer.contains("store failed") && !answer.contains("internal_error"), "\(answer)")
        let log = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(!log.contains(#""level":"error""#), "a client's fault logged as an error: \(log)")
        #expect(log.contains(#""path":"\#(path)","status":"400""#), "\(log)")
        #expect(metrics.contains(#"status="400""#) && !metrics.contains(#"status="500""#), "\(metrics)")
    }
}
