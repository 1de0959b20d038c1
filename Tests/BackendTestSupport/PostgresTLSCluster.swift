import AccountBackendKit
import AccountTestSupport
import Foundation
import PostgresBackend

/// A PostgreSQL cluster of one test's own that serves TLS with a certificate the test made:
/// `scripts/postgres-test-server.sh start --tls`, stopped (and its folder removed) by `stop()`.
///
/// The suite's shared server does not serve TLS: with `prefer`, the default, every other test
/// would then run over TLS too and measure something else than it says.
package struct PostgresTLSCluster: Sendable {
    package let folder: String
    /// The `TEST_POSTGRES_*` settings the script printed.
    private let settings: [String: String]

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
        let required = ["FOLDER", "PORT", "USER", "DATABASE", "PASSWORD"].map { "TEST_POSTGRES_" + $0 }
        guard let folder = settings["TEST_POSTGRES_FOLDER"], required.allSatisfy({ settings[$0] != nil }) else {
            throw Failure(description: "postgres-test-server.sh start --tls printed no TEST_POSTGRES_* settings")
        }
        return PostgresTLSCluster(folder: folder, settings: settings)
    }

    /// Stops the server and removes its folder.
    package func stop() async {
        _ = try? await Self.script(["stop", folder])
    }

    /// The `postgres` section's values for this cluster reached as `host`, with `tls` and, when
    /// given, `tls_ca_file`.
    package func values(host: String, tls: String, caFile: String? = nil) -> [String: BackendOptionValue] {
        var values = PostgresTestServer.values(from: settings)
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
