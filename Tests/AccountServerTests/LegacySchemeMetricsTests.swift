import AccountCore
import AccountServer
import AccountTestSupport
import BackendTestSupport
import NIOHTTP1
import StandardBackends
import Testing

/// `/metrics` says how many accounts are still on each legacy password scheme, so an operator
/// sees a migration from another system run down.
@Suite("Legacy schemes in /metrics")
struct LegacySchemeMetricsTests {
    @Test("accounts per legacy scheme are gauges labelled by scheme; Argon2id accounts are not counted")
    func counts() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let hashes = [
                "$2b$04$" + String(repeating: "a", count: 53), "$2a$10$" + String(repeating: "b", count: 53),
                "pbkdf2_sha256$870000$salt$aGFzaA==",
                "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g",
            ]
            for (index, hash) in hashes.enumerated() {
                try await server.repository.createUser(
                    UserRecord(
                        id: UserID(rawValue: String(repeating: "0", count: 31) + String(index)),
                        email: "moved\(index)in@example.com", nickname: "moved \(index)", passwordHash: hash,
                        createdAt: Timestamp(millisecondsSince1970: 1)), initialSession: nil)
            }
            let metrics = try await server.send(.GET, "/metrics").text
            #expect(metrics.contains(#"accounts_users_legacy_password_scheme{scheme="bcrypt"} 2"#), "\(metrics)")
            #expect(metrics.contains(#"accounts_users_legacy_password_scheme{scheme="django_pbkdf2_sha256"} 1"#))
            #expect(!metrics.contains(#"scheme="argon2id""#))
        }
    }
}
