import AccountCore
import Synchronization

/// Bounds how long a call waits for a pooled connection.
///
/// PostgresNIO's pool retries connecting in the background while a lease waits, without
/// limit; a server that went away must instead give the caller `store_io` in bounded time.
/// Once the connection is leased, the work itself is not cut short (a slow import is fine).
enum PostgresDeadline {
    static func run<T: Sendable>(
        milliseconds: Int, what: String, location: String,
        _ body: @escaping @Sendable (_ leased: @escaping @Sendable () -> Void) async throws -> T
    ) async throws -> T {
        let leased = Flag()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await body { leased.value.store(true, ordering: .releasing) }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(milliseconds))
                return nil
            }
            while let result = try await group.next() {
                if let result {
                    group.cancelAll()
                    return result
                }
                if !leased.value.load(ordering: .acquiring) {
                    group.cancelAll()
                    throw AccountError.storeIO(
                        detail: "\(location): no connection could be made within \(milliseconds) ms")
                }
            }
            throw AccountError.storeIO(detail: "\(location): \(what) ended without a result")
        }
    }
}

/// A flag the lease sets and the timer reads (an `Atomic` cannot be captured by itself).
private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}
