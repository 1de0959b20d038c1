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
    /// Sends `request` on a new connection to `port`, closes the write side, and reads the
    /// answer until the server closes.
    static func halfClosedExchange(port: Int, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw POSIXError(.EIO)
        }
        shutdown(fd, Int32(SHUT_WR))
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += chunk[..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

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
        let answer = try Self.halfClosedExchange(
            port: server.port,
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: 100\r\n\r\n{}")
        let metrics = try Self.halfClosedExchange(port: server.port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
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
