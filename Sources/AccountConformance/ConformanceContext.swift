import AccountBackendKit
public import AccountCore
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// What one check gets: the backend, a fresh scratch folder of its own, and assertion helpers
/// that throw `ConformanceFailure` (so the suite runs under any test framework or none).
public struct ConformanceContext: Sendable, ConformanceExpecting {
    /// The backend under test.
    public let subject: ConformanceSubject
    /// A new empty folder, removed after the check.
    public let directory: String

    /// The default store path inside the scratch folder.
    public var storePath: String { path(subject.storeFileName) }

    /// A path inside the scratch folder.
    public func path(_ name: String) -> String { directory + "/" + name }

    /// Fails the check with `message` unless `condition` holds.
    public func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(message()) }
    }

    /// Opens (or creates, unless `createIfMissing` is off) the store at `path`, by default the
    /// scratch store.
    public func open(_ path: String? = nil, createIfMissing: Bool = true) async throws -> any UserRepository {
        try await subject.open(path ?? storePath, createIfMissing: createIfMissing)
    }

    /// Runs `operation` and fails unless it throws the `AccountError` with `code`, with none of
    /// `secrets` in its text (a token hash, say: what a stored session is found by), and naming
    /// `user` when one is given (a refusal an operator must trace to its record).
    public func expectError<T>(
        _ code: String, _ what: String, hiding secrets: [String] = [], naming user: UserID? = nil,
        _ operation: () async throws -> T
    ) async throws {
        do {
            _ = try await operation()
        } catch let error as AccountError {
            try expect(error.code == code, "\(what): expected \(code), got \(error.code) (\(error.message(.english)))")
            try expect(!secrets.contains { "\(error)".contains($0) }, "\(what): the error shows a secret: \(error)")
            if let user {
                try expect(
                    "\(error)".contains(user.rawValue), "\(what): the error does not name user \(user): \(error)")
            }
            return
        } catch {
            throw ConformanceFailure("\(what): expected \(code), got a non-typed error: \(error)")
        }
        throw ConformanceFailure("\(what): expected \(code), but it succeeded")
    }

    /// Everything the scratch space's stores hold, to prove an operation changed nothing.
    public func snapshot() async throws -> [String: [UInt8]] {
        try await subject.storeFixtures.snapshot(directory)
    }
}
