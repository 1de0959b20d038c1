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
    package let port: Int
    private let user: String
    private let database: String
    private let password: String

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts a cluster presenting `certificate`.
    package static func start(_ certificate: TestCertificate) async throws -> PostgresTLSCluster {
        let output = try await script(["start", "--tls", certificate.certificate, certificate.key])
        var exported: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { exported[String(pair[0])] = String(pair[1]) }
        }
        guard let folder = exported["TEST_POSTGRES_FOLDER"],
            let port = exported["TEST_POSTGRES_PORT"].flatMap(Int.init),
            let user = exported["TEST_POSTGRES_USER"], let database = exported["TEST_POSTGRES_DATABASE"],
            let password = exported["TEST_POSTGRES_PASSWORD"]
        else { throw Failure(description: "postgres-test-server.sh start --tls printed no TEST_POSTGRES_* settings") }
        return PostgresTLSCluster(folder: folder, port: port, user: user, database: database, password: password)
    }

    /// Stops the server and removes its folder.
    package func stop() async {
        _ = try? await Self.script(["stop", folder])
    }

    /// The `postgres` section's values for this cluster reached as `host`, with `tls` and, when
    /// given, `tls_ca_file`.
    package func values(host: String, tls: String, caFile: String? = nil) -> [String: BackendOptionValue] {
        var values = PostgresBackendDescriptor().defaultValues
        values["host"] = .word(host)
        values["port"] = .integer(port)
        values["user"] = .word(user)
        values["database"] = .word(database)
        values["password"] = .secret(password)
        values["tls"] = .word(tls)
        values["tls_ca_file"] = caFile.map { .word($0) }
        values["connect_timeout_ms"] = .integer(PostgresTestServer.connectTimeoutMilliseconds)
        return values
    }

    /// Runs the script; its standard output, or `Failure` with its error output.
    private static func script(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", PackageFiles.path("scripts/postgres-test-server.sh")] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        async let standardError = errors.fileHandleForReading.readToEndOfFile()
        let text = String(decoding: await output.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: await standardError, as: UTF8.self)
        guard await process.exitStatus() == 0 else {
            throw Failure(description: "postgres-test-server.sh \(arguments[0]) failed: \(errorText)")
        }
        return text
    }
}
