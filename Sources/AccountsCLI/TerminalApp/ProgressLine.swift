import AccountCore

#if canImport(Glibc)
    import Glibc
#endif

/// One line of progress on standard error — "imported users: 12345 of 100000 (5432/s, 16 seconds
/// left)", in the run's language — redrawn in place at most a few times a second and erased
/// when the work ends. Only when standard error is a terminal and the output is not `--json`:
/// nothing extra goes into a pipe.
final class ProgressLine {
    private let work: CLIMessages.CountedWork
    private let messages: CLIMessages
    private let total: Int?
    private let enabled: Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant?
    private var drawn = false

    init(_ work: CLIMessages.CountedWork, total: Int?, messages: CLIMessages, json: Bool) {
        self.work = work
        self.messages = messages
        self.total = total
        enabled = !json && isatty(STDERR_FILENO) == 1
        start = clock.now
    }

    /// Reports `done` items; draws when a quarter of a second has passed since the last draw.
    func update(_ done: Int) {
        guard enabled else { return }
        let now = clock.now
        if let lastDrawn, now - lastDrawn < .milliseconds(250) { return }
        lastDrawn = now
        let elapsed = Double((now - start).components.seconds) + Double((now - start).components.attoseconds) / 1e18
        var perSecond: Int?
        var secondsLeft: Int?
        if elapsed > 0, done > 0 {
            let rate = Double(done) / elapsed
            perSecond = Int(rate)
            if let total, total > done { secondsLeft = Int((Double(total - done) / rate).rounded(.up)) }
        }
        let text = messages.progress(work, done: done, total: total, perSecond: perSecond, secondsLeft: secondsLeft)
        draw("\r" + text + "\u{1B}[K")
        drawn = true
    }

    /// Erases the line, so the command's own output starts on a clean line.
    func finish() {
        if drawn { draw("\r\u{1B}[K") }
    }

    private func draw(_ text: String) {
        var standardError = StandardError()
        print(text, terminator: "", to: &standardError)
    }
}
