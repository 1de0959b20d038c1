import AccountBackendKit
import AccountConformance
import AccountCore
import AccountCrypto
import Foundation

/// Runs phases A–E of the baseline workload through the `UserRepository` API of one backend.
///
/// A sign-up: N creates, each durable with its duplicate check (the unique index / email key)
/// B lookup: N lookups of random existing emails
/// C duplicate: N/10 creates of existing emails, each refused with `email_taken`
/// D withdraw: N/2 deletes of distinct random users (with their sessions)
/// E bulk import: N users into a fresh store through the import path (`createUsers`, 1,000 a batch)
struct WorkloadRunner {
    let backend: any BackendDescriptor
    /// Where its scratch stores go (a server backend's in schemas of their own).
    let fixtures: (any BackendFixtures)?
    let mode: String
    let values: [String: BackendOptionValue]
    let n: Int
    let folder: String

    func run(phases: Set<String>) async throws -> [PhaseResult] {
        var results: [PhaseResult] = []
        var random = SplitMix64(seed: 0x5EED_0000 + UInt64(n))
        if !phases.isDisjoint(with: ["A", "B", "C", "D", "T"]) {
            // B, C, D and T need the users of A, so A always runs with them.
            let store = try await open("a")
            let signUp = try await timed("A_signup", count: n) { index in
                try await store.createUser(WorkloadRecords.user(index), initialSession: nil)
            }
            if phases.contains("A") { results.append(signUp) }
            if phases.contains("T") { results.append(Self.tail(of: signUp)) }
            if phases.contains("B") {
                results.append(
                    try await timed(
                        "B_lookup", count: n, input: { _ in WorkloadRecords.email(Int(random.next() % UInt64(n))) }
                    ) { email in
                        guard try await store.user(email: email) != nil else {
                            throw AccountError.storeIO(detail: "lookup missed")
                        }
                    })
            }
            if phases.contains("C") {
                results.append(
                    try await timed("C_duplicate", count: n / 10) { index in
                        let duplicate = WorkloadRecords.user(n + index, emailOf: Int(random.next() % UInt64(n)))
                        do {
                            try await store.createUser(duplicate, initialSession: nil)
                            throw AccountError.storeIO(detail: "a duplicate was accepted")
                        } catch AccountError.emailTaken {}
                    })
            }
            if phases.contains("D") {
                var order = Array(0..<n)
                order.shuffle(using: &random)
                results.append(
                    try await timed("D_withdraw", count: n / 2, input: { WorkloadRecords.user(order[$0]).id }) { id in
                        guard try await store.deleteUser(id: id) else {
                            throw AccountError.storeIO(detail: "withdraw missed")
                        }
                    })
            }
            try await store.close()
        }
        if phases.contains("E") {
            let bulk = try await open("e")
            let batch = 1_000
            let result = try await timed("E_bulk_import", count: (n + batch - 1) / batch) { index in
                let users = (index * batch..<min(n, (index + 1) * batch)).map { WorkloadRecords.user($0) }
                guard try await bulk.createUsers(users).isEmpty else {
                    throw AccountError.storeIO(detail: "import skipped")
                }
            }
            // Report per user, like the baseline: total time over N.
            results.append(
                PhaseResult(
                    phase: "E_bulk_import", backend: backend.name, mode: mode, n: n,
                    latenciesMicroseconds: Array(repeating: result.seconds * 1e6 / Double(n), count: n),
                    seconds: result.seconds))
            try await bulk.close()
        }
        return results
    }

    /// Runs `body` `count` times. The phase's time (and so its mean) covers every iteration, as
    /// the raw reference's does; each operation's latency covers `body` only, not making its
    /// `input`, which the raw reference also formats before starting an operation's clock
    /// (lookup keys in B, ids in D). Inputs are made one at a time, as there, rather than held
    /// in arrays of N strings that would count in the peak RSS.
    private func timed<Input>(
        _ phase: String, count: Int, input: (Int) -> Input, _ body: (Input) async throws -> Void
    ) async throws -> PhaseResult {
        let clock = ContinuousClock()
        var latencies: [Double] = []
        latencies.reserveCapacity(count)
        let start = clock.now
        for index in 0..<count {
            let argument = input(index)
            let begin = clock.now
            try await body(argument)
            latencies.append(Self.microseconds(clock.now - begin))
        }
        return PhaseResult(
            phase: phase, backend: backend.name, mode: mode, n: n, latenciesMicroseconds: latencies,
            seconds: Self.microseconds(clock.now - start) / 1e6)
    }

    private func timed(_ phase: String, count: Int, _ body: (Int) async throws -> Void) async throws -> PhaseResult {
        try await timed(phase, count: count, input: { $0 }, body)
    }

    /// The JSON store's cost of one sign-up when the file already holds ~N users.
    private static func tail(of signUp: PhaseResult) -> PhaseResult {
        let tail = Array(signUp.latenciesMicroseconds.suffix(min(100, max(1, signUp.n / 10))))
        return PhaseResult(
            phase: "A_signup_at_N", backend: signUp.backend, mode: signUp.mode, n: signUp.n,
            latenciesMicroseconds: tail, seconds: tail.reduce(0, +) / 1e6)
    }

    private func open(_ name: String) async throws -> any UserRepository {
        // Always a scratch store, never the configured one: a file in the bench's temporary
        // folder, or a scratch schema named after it on a server.
        let path = folder + "/\(name)-" + backend.defaultStoreName
        return try await backend.open(
            BackendConfiguration(location: fixtures?.scratchLocation(for: path) ?? path, values: values))
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}
