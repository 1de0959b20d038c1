import AccountServer
import Foundation
import Testing

/// The hashing threads carry names of their own, so an operator's `top -H` or `ps -L` tells the
/// server's Argon2id apart from its event loops and Dispatch's threads.
@Suite("Hashing threads")
struct HashingThreadTests {
    @Test("every hash runs on a thread the kernel knows as hashing-N")
    func namedForTheKernel() async throws {
        let gate = HashingGate(concurrency: 2, queueLimit: 4)
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try await gate.run { Self.kernelNameOfThisThread() } } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(!names.isEmpty)
        #expect(names.isSubset(of: ["hashing-0", "hashing-1"]), "hashes ran on threads named \(names.sorted())")
    }

    /// The name `top -H` shows: the kernel's, not Foundation's.
    static func kernelNameOfThisThread() -> String {
        guard let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) else {
            return "(unreadable)"
        }
        return name.trimmingCharacters(in: .newlines)
    }
}
