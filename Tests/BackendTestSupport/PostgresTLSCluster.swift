package import AccountBackendKit
package import AccountTestSupport
import Foundation
import PostgresBackend

/// A PostgreSQL cluster of one test's own that serves TLS with a certificate the test made:
/// `scripts/postgres-test-server.sh start --tls`, stopped (and its folder removed) by `stop()`.
///
/// The suite's shared server does not serve TLS: with `prefer`, the default, every other test
/// would then run over TLS too and measure something else than it says.
package struct PostgresTLSCluster: Sendable {
    package let folder: String
    /// The `postgres` section's values for the server the script started.
    private let serverValues: [String: BackendOptionValue]

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts a cluster presenting `certificate`.
    package static func start(_ certificate: TestCertificate) async throws -> PostgresTLSCluster {
        let output = try await script(["start", "--tls", certificate.certificate, certificate.key])
        var settings: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { settings[String(pair[0])] = String(pair[1]) }
        }
        guard let folder = settings["TEST_POSTGRES_FOLDER"], folder.hasPrefix("/") else {
            throw Failure(description: "postgres-test-server.sh start --tls printed no TEST_POSTGRES_FOLDER")
        }
        do {
            return PostgresTLSCluster(folder: folder, serverValues: try PostgresTestServer.values(from: settings))
        } catch {
            // Started, but unusable: stop it rather than leave a server running.
            _ = try? await script(["stop", folder])
            throw Failure(description: "postgres-test-server.sh start --tls printed unusable settings: \(error)")
        }
    }

    /// Stops the server and removes its folder.
    package func stop() async {
        _ = try? await Self.script(["stop", folder])
    }

    /// The `postgres` section's values for this cluster reached as `host`, with `tls` and, when
    /// given, `tls_ca_file`.
    package func values(host: String, tls: String, caFile: String? = nil) -> [String: BackendOptionValue] {
        var values = serverValues
        values["host"] = .word(host)
        values["tls"] = .word(tls)
        values["tls_ca_file"] = caFile.map { .word($0) }
        return values
    }

    /// Runs the script; its standard output, or `Failure` with its error output.
    private static func script(_ arguments: [String]) async throws -> String {
        let outcome = try await ChildProcess.run(
            "/usr/bin/env", ["bash", PackageFiles.path("scripts/postgres-test-server.sh")] + arguments)
        guard outcome.status == 0 else {
            throw Failure(description: "postgres-test-server.sh \(arguments[0]) failed: \(outcome.standardError)")
        }
        return outcome.standardOutput
    }
}
