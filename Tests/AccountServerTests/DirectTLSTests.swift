import AccountTestSupport
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// `accounts serve` speaking HTTPS itself, with a certificate the test makes.
@Suite("accounts serve over HTTPS")
struct DirectTLSTests {
    @Test(
        "with server.tls_certificate and server.tls_key it serves HTTPS with HSTS, and the pages' cookies are Secure",
        .enabled(if: TestCertificate.isAvailable, Comment(rawValue: TestCertificate.skipReason)))
    func https() async throws {
        let runner = try CLIRunner("serve-tls")
        let files = try await TestCertificate.make(in: runner.root)
        var environment = runner.environment
        environment["ACCOUNTS_SERVER_TLS_CERTIFICATE"] = files.certificate
        environment["ACCOUNTS_SERVER_TLS_KEY"] = files.key
        let server = try await ServeProcess(environment: environment, folder: runner.root)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(files.certificate))
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(tlsConfiguration: tls, redirectConfiguration: .disallow))
        let plain = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            #expect(server.scheme == "https")
            let health = try await client.execute(
                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/healthz"), timeout: .seconds(30))
            #expect(health.status == .ok)
            #expect(health.headers.first(name: "Strict-Transport-Security") == "max-age=31536000")
            let page = try await client.execute(
                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/signup"), timeout: .seconds(30))
            #expect(
                page.headers["Set-Cookie"].contains { $0.hasPrefix("__Host-accounts_form=") && $0.contains("Secure") })
            #expect(page.headers.first(name: "Strict-Transport-Security") == "max-age=31536000", "pages too")
            await #expect(throws: (any Error).self, "plain HTTP is not answered on the HTTPS port") {
                _ = try await plain.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/healthz"), timeout: .seconds(10))
            }
        } catch {
            try await client.shutdown()
            try await plain.shutdown()
            _ = await server.stop()
            throw error
        }
        try await client.shutdown()
        try await plain.shutdown()
        #expect(await server.stop().status == 0)
    }

    @Test("a missing key or an unreadable certificate is config_invalid, naming the key and the file")
    func badFiles() async throws {
        let runner = try CLIRunner("serve-tls-bad")
        let notPEM = runner.root + "/not.pem"
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: notPEM))
        let half = try await runner.run(
            ["serve", "--port", "0", "--json"], environment: ["ACCOUNTS_SERVER_TLS_CERTIFICATE": notPEM])
        #expect(half.status != 0)
        #expect(half.stdout.contains(#""code":"config_invalid""#) && half.stdout.contains("server.tls_key"))
        let unreadable = try await runner.run(
            ["serve", "--port", "0", "--json"],
            environment: ["ACCOUNTS_SERVER_TLS_CERTIFICATE": notPEM, "ACCOUNTS_SERVER_TLS_KEY": notPEM])
        #expect(unreadable.status != 0)
        #expect(unreadable.stdout.contains("cannot read a PEM certificate from \(notPEM)"))
        let store = runner.root + "/data/accounts/accounts.sqlite"
        #expect(!FileManager.default.fileExists(atPath: store), "no store was created for a server that cannot start")
    }
}
