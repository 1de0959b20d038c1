import AccountCore
import AccountServer
import AccountServerSettings
import AccountTestSupport
import Foundation
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What each failure to listen tells the operator. The real binds are driven by
/// `ServeCommandTests.cannotListen`; a port below 1024 cannot be, as the tests run as root here.
@Suite("Listen failures")
struct ListenFailureTests {
    @Test("a bind error only a setting mends names the key; one that may pass is cannot_listen")
    func mapping() {
        let listen = ServerSettings(host: "127.0.0.1", port: 80)
        let bind = { (code: Int32) in IOError(errnoCode: code, reason: "bind(descriptor:ptr:bytes:)") }
        let mapped = listen.configurationError(for: bind(EACCES))
        guard case .configInvalid(let key, let reason)? = mapped else {
            Issue.record("EACCES: \(String(describing: mapped))")
            return
        }
        #expect(key == "server.port")
        #expect(reason.hasPrefix("listening on port 80 needs a privilege this process does not have"), "\(reason)")
        #expect(listen.cannotListen(for: bind(EACCES)) == nil, "a privilege is configuration, not a wait")
        // What may pass is not configuration: a supervisor retries it.
        for (code, reason) in [
            (EADDRINUSE, "127.0.0.1:80 is already in use by another process (another port: --port or server.port)"),
            (EADDRNOTAVAIL, "127.0.0.1 is not an address of this host"),
        ] {
            #expect(listen.configurationError(for: bind(code)) == nil)
            #expect(listen.cannotListen(for: bind(code)) == CannotListen(reason: reason))
        }
        #expect(listen.configurationError(for: IOError(errnoCode: ECONNRESET, reason: "read")) == nil)
        #expect(listen.configurationError(for: CancellationError()) == nil)
    }

    @Test("the Configuration article says what the server does with a busy port: cannot_listen, exit 11")
    func articleAgrees() throws {
        let article = try String(
            contentsOfFile: PackageFiles.path("Sources/AccountsCLI/AccountsCLI.docc/Configuration.md"), encoding: .utf8)
        let paragraph = try #require(
            article.components(separatedBy: "\n\n").first { $0.contains("cannot listen on") }, "the paragraph")
        #expect(paragraph.contains("A port already in use"), "\(paragraph)")
        #expect(paragraph.contains("`cannot_listen` (exit 11)"), "\(paragraph)")
        #expect(!paragraph.contains("a port already in use or below 1024"), "the old claim: \(paragraph)")
    }
}
