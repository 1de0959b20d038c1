#if Server
    import AccountMail
    import Logging
    import Synchronization

    /// The server's mail sender, running beside it: started once the server listens (links need
    /// its address), stopped when it stops.
    final class MailLoop: Sendable {
        /// How often the outbox is looked at.
        static let interval = Duration.seconds(1)

        private let task = Mutex<Task<Void, Never>?>(nil)

        func start(_ sender: OutboxSender, logger: Logger) {
            let running = Task {
                await sender.run(every: Self.interval) { outcome in
                    switch outcome {
                    case .success(let pass):
                        // Counts and the relay's answer only: never an address, a code or a password.
                        var metadata: Logger.Metadata = [
                            "sent": "\(pass.sent)", "deferred": "\(pass.deferred)", "dropped": "\(pass.dropped)",
                        ]
                        if let failure = pass.lastFailure { metadata["failure"] = .string(failure) }
                        if pass.lastFailure == nil {
                            logger.info("mail", metadata: metadata)
                        } else {
                            logger.warning("mail", metadata: metadata)
                        }
                    case .failure(let error):
                        logger.error("mail", metadata: ["cause": .string(String(describing: type(of: error)))])
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
