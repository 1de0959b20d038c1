import AccountBackendKit
import BackendTestSupport
import PostgresNIO

@testable import PostgresBackend

extension PostgresTestServer {
    /// Runs `body` on one connection of its own, apart from any store's pool, made with `values`
    /// (the test server's own role by default) on the `public` schema: how a check looks at the
    /// server from the side while a store is open, or changes what the server allows.
    static func withDirectConnection<T: Sendable>(
        _ values: [String: BackendOptionValue] = PostgresTestServer.values,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let options = try PostgresBackendDescriptor.connectionOptions(
            BackendConfiguration(location: "public", values: values))
        return try await PostgresConnector(options).withConnection(body)
    }
}
