#if Server
    import AccountCore
    import Logging
    import Synchronization

    /// The server's sweep of finished flows' records: every hour, the replaced refresh tokens and
    /// one-time codes that have expired are deleted (``UserRepository/purgeExpiredFlowRecords(at:)``),
    /// so a store that serves refreshes all day does not keep one record per refresh for good.
    /// `accounts doctor --fix` does the same once.
    final class ExpiredRecordsSweep: Sendable {
        /// How often the sweep runs (the first time one interval after the start).
        static let interval = Duration.seconds(3_600)

        private let task = Mutex<Task<Void, Never>?>(nil)

        func start(_ repository: any UserRepository, clock: any AccountClock = SystemClock(), logger: Logger) {
            let running = Task {
                while !Task.isCancelled {
                    do {
                        try await Task.sleep(for: Self.interval)
                    } catch {
                        return
                    }
                    do {
                        let purged = try await repository.purgeExpiredFlowRecords(at: clock.now())
                        logger.info("expired records purged", metadata: ["purged": "\(purged)"])
                    } catch {
                        // Tried again at the next interval; the store's error type names the cause.
                        logger.warning(
                            "expired records not purged",
                            metadata: ["cause": .string(String(describing: type(of: error)))])
                    }
                }
            }
            task.withLock { $0 = running }
        }

        func stop() {
            task.withLock { $0?.cancel() }
        }
    }
#endif
