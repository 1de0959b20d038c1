import AccountBackendKit
import AccountCore
import AccountTestSupport
import Foundation
import StandardBackends

/// A store of many users written straight through the backend: what a test of long or paged
/// operator work needs, without a sign-up (and its password hash) per user.
enum WrittenStore {
    /// A store of the backend `backend` in the runner's scratch folder, holding `count` users
    /// `user100000@example.com`, `user100001@example.com`, … ; returns its path.
    static func make(_ cli: borrowing CLIRunner, count: Int, backend name: String = "sqlite") async throws -> String {
        let path = cli.root + "/big.\(name)"
        let backend = try BackendRegistry.standard.descriptor(named: name)
        let store = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: path, values: backend.defaultValues))
        let users = (0..<count).map { n in
            UserRecord(
                id: UserID(rawValue: String(format: "%032x", n)), email: "user\(100_000 + n)@example.com",
                nickname: "user \(n)", passwordHash: "$h$", createdAt: Timestamp(millisecondsSince1970: Int64(n)))
        }
        _ = try await store.createUsers(users)
        try await store.close()
        return path
    }
}
