import AccountCore
import AccountServer
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What each failure to listen tells the operator. The real binds are driven by
/// `ServeCommandTests.cannotListen`; a port below 1024 cannot be, as the tests run as root here.
@Suite("Listen failures")
struct ListenFailureTests {
    @Test("each bind error names the key to change")
    func mapping() {
        let listen = ListenSettings(host: "127.0.0.1", port: 80, idleTimeoutSeconds: 60)
        let cases: [(errno: Int32, key: String, reason: String)] = [
            (EACCES, "server.port", "listening on port 80 needs a privilege this process does not have"),
            (EADDRINUSE, "server.port", "127.0.0.1:80 is already in use by another process"),
            (EADDRNOTAVAIL, "server.host", "127.0.0.1 is not an address of this host"),
        ]
        for (code, key, reason) in cases {
            let mapped = listen.configurationError(for: IOError(errnoCode: code, reason: "bind(descriptor:ptr:bytes:)"))
            guard case .configInvalid(let mappedKey, let mappedReason)? = mapped else {
                Issue.record("errno \(code): \(String(describing: mapped))")
                continue
            }
            #expect(mappedKey == key)
            #expect(mappedReason.hasPrefix(reason), "\(mappedReason)")
        }
        #expect(listen.configurationError(for: IOError(errnoCode: ECONNRESET, reason: "read")) == nil)
        #expect(listen.configurationError(for: CancellationError()) == nil)
    }
}
