/// Where ``AccountService`` runs its password hashes (Argon2id: tens of milliseconds and 19 MiB
/// each). The service calls it around the hashing alone — never around the store's reads and
/// writes before and after — so a scheduler that bounds how many hashes run at once (the
/// server's `HashingGate`) holds a slot only while a hash computes, not while a session is
/// written and flushed.
public protocol PasswordHashingScheduler: Sendable {
    /// Runs `work` (one verification, one hash, or a verification and the hash of a new password)
    /// when the scheduler lets it, and returns its result.
    /// - Throws: what `work` throws, or the scheduler's own refusal (the server's full queue).
    func run<T: Sendable>(_ work: @Sendable () throws -> T) async throws -> T
}

/// Runs each hash at once, on the caller's thread: right where one request runs at a time (the
/// CLI, a test).
public struct ImmediateHashing: PasswordHashingScheduler {
    public init() {}

    public func run<T: Sendable>(_ work: @Sendable () throws -> T) async throws -> T { try work() }
}
