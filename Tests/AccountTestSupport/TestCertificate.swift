import Foundation

/// A self-signed P-256 certificate and its key, made by the `openssl` command for one test: the
/// server presents it, and a client that should trust the server takes it as its only root.
package struct TestCertificate: Sendable {
    package static let openssl = "/usr/bin/openssl"

    /// Whether the command is here; tests that need a certificate are skipped without it.
    package static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: openssl) }

    /// Why those tests are skipped.
    package static let skipReason =
        "needs the openssl command (scripts/install-dependencies.sh --test-server installs it)"

    /// The certificate's PEM file.
    package let certificate: String
    /// Its private key's PEM file.
    package let key: String

    /// openssl failed; its own words are in `output`.
    package struct Failure: Error, CustomStringConvertible {
        package let output: String
        package var description: String { "openssl could not make the certificate: \(output)" }
    }

    /// Makes `<name>.pem` and `<name>-key.pem` in `folder`, for the names in `subjectAltName`
    /// (openssl's syntax: `IP:127.0.0.1`, `DNS:localhost`), valid for a day.
    package static func make(in folder: String, name: String = "cert", subjectAltName: String = "IP:127.0.0.1")
        async throws -> TestCertificate
    {
        let made = TestCertificate(certificate: folder + "/\(name).pem", key: folder + "/\(name)-key.pem")
        let outcome = try await ChildProcess.run(
            openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-subj", "/CN=AccountStore test \(name)", "-addext", "subjectAltName=\(subjectAltName)",
                "-keyout", made.key, "-out", made.certificate,
            ])
        guard outcome.status == 0 else { throw Failure(output: outcome.standardOutput + outcome.standardError) }
        return made
    }
}
