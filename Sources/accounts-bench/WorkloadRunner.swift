import AccountCore
import AccountCrypto
import BackendRegistry
import Foundation

/// Runs phases A–E of the baseline workload through the `UserRepository` API of one backend.
///
/// A sign-up: N creates, each durable with its duplicate check (the unique index / email key)
/// B lookup: N lookups of random existing emails
/// C duplicate: N/10 creates of existing emails, each refused with `email_taken`
/// D withdraw: N/2 deletes of distinct random users (with their sessions)
/// E bulk import: N users into a fresh store through the import path (`createUsers`, 1,000 a batch)
struct WorkloadRunner {
    let backend: BackendDescriptor
    let mode: String
    let values: [String: BackendOptionValue]
    let n: Int
    let folder: String

    func run(phases: Set<String>) async throws -> [PhaseResult] {
        var results: [PhaseResult] = []
        var random = SplitMix64(seed: 0x5EED_0000 + UInt64(n))
        let store = try await open("a")
        let clock = ContinuousClock()
        func timed(_ phase: String, count: Int, _ body: (Int) async throws -> Void) async throws -> PhaseResult {
            var latencies: [Double] = []
            latencies.reserveCapacity(count)
            let start = clock.now
            for index in 0..<count {
                let begin = clock.now
                try await body(index)
                latencies.append(Self.microseconds(clock.now - begin))
            }
            return PhaseResult(
                phase: phase, backend: backend.name, mode: mode, n: n, latenciesMicroseconds: latencies,
                seconds: Self.microseconds(clock.now - start) / 1e6)
        }
        let signUp = try await timed("A_signup", count: n) { index in
            try await store.createUser(WorkloadRecords.user(index), initialSession: nil)
        }
        if phases.contains("A") {
            results.append(signUp)
            if backend.name == "json" {
                // The cost of one sign-up when the file already holds ~N users.
                let tail = min(100, max(1, n / 10))
                results.append(
                    PhaseResult(
                        phase: "A_signup_at_N", backend: backend.name, mode: mode, n: n,
                        latenciesMicroseconds: Array(signUp.latenciesMicroseconds.suffix(tail)),
                        seconds: signUp.latenciesMicroseconds.suffix(tail).reduce(0, +) / 1e6))
            }
        }
        if phases.contains("B") {
            // The keys are made before the clock starts, as in the raw baseline.
            let emails = (0..<n).map { _ in WorkloadRecords.email(Int(random.next() % UInt64(n))) }
            results.append(
                try await timed("B_lookup", count: n) { index in
                    guard try await store.user(email: emails[index]) != nil else {
                        throw AccountError.storeIO(detail: "lookup missed")
                    }
                })
        }
        if phases.contains("C") {
            let duplicates = (0..<(n / 10)).map { index in
                var duplicate = WorkloadRecords.user(n + index)
                duplicate.email = WorkloadRecords.email(Int(random.next() % UInt64(n)))
                return duplicate
            }
            results.append(
                try await timed("C_duplicate", count: n / 10) { index in
                    do {
                        try await store.createUser(duplicates[index], initialSession: nil)
                        throw AccountError.storeIO(detail: "a duplicate was accepted")
                    } catch AccountError.emailTaken {}
                })
        }
        if phases.contains("D") {
            var order = Array(0..<n)
            order.shuffle(using: &random)
            let ids = order.prefix(n / 2).map { WorkloadRecords.user($0).id }
            results.append(
                try await timed("D_withdraw", count: n / 2) { index in
                    guard try await store.deleteUser(id: ids[index]) else {
                        throw AccountError.storeIO(detail: "withdraw missed")
                    }
                })
        }
        try await store.close()
        if phases.contains("E") {
            let bulk = try await open("e")
            let batch = 1_000
            let result = try await timed("E_bulk_import", count: (n + batch - 1) / batch) { index in
                let users = (index * batch..<min(n, (index + 1) * batch)).map(WorkloadRecords.user)
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

    private func open(_ name: String) async throws -> any UserRepository {
        let path = folder + "/\(name)-" + backend.defaultStoreFileName
        return try await backend.open(BackendConfiguration(storePath: path, values: values))
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}
