import AccountServer
import AccountTestSupport
import ChildProcesses
import Foundation
import Logging
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The log of `accounts serve`: each entry one JSON object on one line, whatever it contains.
@Suite("JSON lines log")
struct JSONLinesLogHandlerTests {
    /// A pipe's read and write ends, close-on-exec as they are made: tests run side by side,
    /// and a child that another test starts meanwhile would otherwise keep the write end open,
    /// and this test's read to the end of the pipe would wait for that child.
    static func pipe() throws -> [Int32] {
        let ends = try GNUExtensions.closeOnExecPipeDescriptors()
        return [ends.read, ends.write]
    }

    @Test("an entry with quotes, newlines and Korean in its fields is one parseable JSON line")
    func oneLine() throws {
        let fds = try Self.pipe()
        var logger = Logger(label: "test") { JSONLinesLogHandler(label: $0, file: fds[1]) }
        logger[metadataKey: "hb.request.id"] = "abc"
        logger.info("request \"odd\"\nline", metadata: ["path": "/v1/me", "nickname": "이순신 \"q\"\t"])
        logger.debug("below the level: not written")
        close(fds[1])
        let text = String(
            decoding: FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line, ended by a newline: \(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["message"] as? String == "request \"odd\"\nline")
        #expect(object["nickname"] as? String == "이순신 \"q\"\t")
        #expect(object["hb.request.id"] as? String == "abc")
        #expect(object["level"] as? String == "info")
        #expect((object["time"] as? String)?.hasSuffix("Z") == true)
    }

    @Test("the entry's fields win over the logger's on the same key, and every key comes once, in order")
    func fieldOrder() throws {
        let fds = try Self.pipe()
        var logger = Logger(label: "test") { JSONLinesLogHandler(label: $0, file: fds[1]) }
        logger[metadataKey: "path"] = "from the logger"
        logger[metadataKey: "b"] = "kept"
        logger.info("request", metadata: ["path": "/v1/me", "status": .stringConvertible(200), "a": "first"])
        close(fds[1])
        let text = String(
            decoding: FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        #expect(
            text.contains(#""message":"request","a":"first","b":"kept","path":"/v1/me","status":"200"}"#), "\(text)")
        #expect(!text.contains("from the logger"))
    }
}
