extension OutboxSender {
    /// Sends what is due every `interval` until the task is cancelled, handing each pass that
    /// did something (or failed) to `report`. A store error ends only that pass.
    public func run(every interval: Duration, report: @Sendable (Result<DeliveryPass, any Error>) -> Void) async {
        while !Task.isCancelled {
            do {
                let pass = try await deliverDue()
                if pass != DeliveryPass() { report(.success(pass)) }
            } catch {
                report(.failure(error))
            }
            try? await Task.sleep(for: interval)
        }
    }
}
