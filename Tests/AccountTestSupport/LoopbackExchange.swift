import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP exchange over a plain socket to a server on 127.0.0.1, from any loopback address
/// (Linux routes all of 127.0.0.0/8 to this host): the way to be two or three clients at once
/// as a server counts them, or to send what an HTTP client library would not.
package enum LoopbackExchange {
    /// Sends `request` to `127.0.0.1:port` from `source`, closes the write side when
    /// `halfClose` (a client done sending), and reads the answer until the server closes.
    package static func send(_ request: String, port: Int, from source: String = "127.0.0.1", halfClose: Bool = false)
        throws -> String
    {
        try exchange(Array(request.utf8), port: port, from: source, halfClose: halfClose).answer
    }

    /// Sends the bytes of `request` (which need not be text), reads the answer until the server
    /// closes the connection or 30 s pass without a byte, and says which: `closedByServer` is
    /// `false` when the server still held the connection open.
    package static func exchange(
        _ request: [UInt8], port: Int, from source: String = "127.0.0.1", halfClose: Bool = false
    ) throws -> (answer: String, closedByServer: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        func address(_ text: String, port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(text)
            return address
        }
        func call(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32, _ address: sockaddr_in) -> Int32 {
            withUnsafePointer(to: address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard call({ bind(fd, $0, $1) }, address(source, port: 0)) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        guard call({ connect(fd, $0, $1) }, address("127.0.0.1", port: port)) == 0 else {
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard request.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw POSIXError(.EIO)
        }
        if halfClose { shutdown(fd, Int32(SHUT_WR)) }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var closed = false
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { closed = true }
            if count <= 0 { break }
            answer += chunk[..<count]
        }
        return (String(decoding: answer, as: UTF8.self), closed)
    }

    /// `POST path` with a JSON body on a connection of its own from `source`; the answer's
    /// status and body.
    package static func postJSON(_ path: String, _ json: String, port: Int, from source: String) throws -> (
        status: Int, body: String
    ) {
        let answer = try send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)",
            port: port, from: source)
        let status = answer.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let body = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
        return (status, body)
    }
}

extension LoopbackExchange {
    /// ``postJSON(_:_:port:from:)`` on a thread of its own, so a test's task waits without
    /// holding one of the few threads the server under test may need.
    package static func postJSON(_ path: String, _ json: String, port: Int, from source: String) async throws -> (
        status: Int, body: String
    ) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try postJSON(path, json, port: port, from: source) })
            }
        }
    }

    /// ``exchange(_:port:from:halfClose:)`` on a thread of its own: a test's task must never
    /// block one of the few cooperative threads the server under test runs its routes on.
    package static func exchange(
        _ request: [UInt8], port: Int, from source: String = "127.0.0.1", halfClose: Bool = false
    ) async throws -> (answer: String, closedByServer: Bool) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result { try exchange(request, port: port, from: source, halfClose: halfClose) })
            }
        }
    }

    /// `GET path` with `headers` on a connection of its own, on a thread of its own (as
    /// ``postJSON(_:_:port:from:)``): the status, the head (status line and headers) and the body.
    package static func get(_ path: String, port: Int, headers: [String] = []) async throws -> (
        status: Int, head: String, body: String
    ) {
        let lines = ["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers + ["Connection: close", "", ""]
        let answer = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try send(lines.joined(separator: "\r\n"), port: port) })
            }
        }
        let status = answer.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let head = answer.range(of: "\r\n\r\n").map { String(answer[..<$0.lowerBound]) } ?? answer
        let body = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
        return (status, head, body)
    }
}
