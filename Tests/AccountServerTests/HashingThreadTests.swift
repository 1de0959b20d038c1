import AccountServer
import Foundation
import Testing

/// The hashing threads carry names of their own, so an operator's `top -H` or `ps -L` tells the
/// server's Argon2id apart from its event loops and Dispatch's threads; and every hash runs on
/// them, whichever thread its request was on.
@Suite("Hashing threads")
struct HashingThreadTests {
    /// Gates (each with threads of its own) per check: a thread that missed its name showed in
    /// about one gate in twenty-five, so this many make a miss all but certain to show.
    static let gates = 200

    @Test("every hash runs on a thread the kernel knows as hashing-N, called from anywhere")
    func namedForTheKernel() async throws {
        let names = try await Self.namesOfHashingThreads { gate in
            try await gate.run { Self.kernelNameOfThisThread() }
        }
        #expect(names.isSubset(of: ["hashing-0", "hashing-1"]), "hashes ran on threads named \(names.sorted())")
    }

    @Test("a request's hash runs on the hashing threads, as the routes call it")
    func throughTheRequestsPath() async throws {
        let names = try await Self.namesOfHashingThreads { gate in
            try await gate.offEventLoops { try await gate.run { Self.kernelNameOfThisThread() } }
        }
        #expect(names.isSubset(of: ["hashing-0", "hashing-1"]), "hashes ran on threads named \(names.sorted())")
    }

    /// The names of the threads `hash` ran on: six calls at once (more than a gate's slots, so
    /// some wait for one) through each of ``gates`` new gates of two threads.
    static func namesOfHashingThreads(
        _ hash: @escaping @Sendable (HashingGate) async throws -> String
    ) async throws -> Set<String> {
        var names = Set<String>()
        for _ in 0..<gates {
            let gate = HashingGate(concurrency: 2, queueLimit: 4)
            names.formUnion(
                try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<6 { group.addTask { try await hash(gate) } }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                })
        }
        #expect(!names.isEmpty)
        return names
    }

    /// The name `top -H` shows: the kernel's, not Foundation's.
    static func kernelNameOfThisThread() -> String {
        guard let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) else {
            return "(unreadable)"
        }
        return name.trimmingCharacters(in: .newlines)
    }
}
