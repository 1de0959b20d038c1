import AccountCore
import AccountTestSupport
import Foundation
import Testing

/// The throttle on its own, with a manual clock: its bookkeeping, and the figures the
/// security article quotes for an attacker.
@Suite("LoginThrottle")
struct LoginThrottleTests {
    /// How long `origin` must wait to try `email`, or `nil` and the attempt, begun.
    static func attempt(
        _ throttle: LoginThrottle, _ email: String, from origin: LoginOrigin, at now: Timestamp
    ) -> (wait: Int64?, attempt: LoginAttempt?) {
        do {
            return (nil, try throttle.attempt(email: email, from: origin, at: now))
        } catch AccountError.tooManyAttempts(let seconds) {
            return (seconds, nil)
        } catch {
            Issue.record("an attempt failed otherwise: \(error)")
            return (nil, nil)
        }
    }

    /// Guesses an attacker gets on one account in each of the first `hours` hours, trying as
    /// soon as the throttle lets them, from `addresses` clients taken in turn.
    static func guessesPerHour(addresses: Int, hours: Int) -> [Int] {
        let throttle = LoginThrottle()
        let clock = ManualClock()
        let start = clock.now()
        var counts = Array(repeating: 0, count: hours)
        var next = 0
        while true {
            let elapsed = start.secondsUntil(clock.now())
            guard elapsed < Int64(hours) * 3_600 else { return counts }
            let origin = LoginOrigin(client: "203.0.\(next / 256).\(next % 256)")
            if let wait = attempt(throttle, "leesoon7@example.com", from: origin, at: clock.now()).wait {
                clock.advance(seconds: addresses == 1 ? wait : 1)
            } else {
                counts[Int(elapsed / 3_600)] += 1
                next = (next + 1) % addresses
            }
        }
    }

    @Test("the figures in the security article: one address, a thousand addresses")
    func documentedFigures() throws {
        let one = Self.guessesPerHour(addresses: 1, hours: 3)
        let thousand = Self.guessesPerHour(addresses: 1_000, hours: 3)
        #expect(one == [16, 4, 4])
        #expect(thousand == [19, 10, 10])
        let article = try String(
            contentsOfFile: PackageFiles.path("Sources/AccountsCLI/AccountsCLI.docc/Security.md"), encoding: .utf8)
        #expect(article.contains("| one address | \(one[0]) | \(one[1]) |"), "the article's table is current")
        #expect(article.contains("| a thousand addresses | \(thousand[0]) | \(thousand[1]) |"))
    }

    @Test("tries sent at once are counted as they start, not when their hashes finish")
    func concurrentTriesCount() {
        let throttle = LoginThrottle()
        let now = ManualClock().now()
        let origin = LoginOrigin(client: "203.0.113.1")
        let admitted = (1...20).filter { _ in Self.attempt(throttle, "a@example.com", from: origin, at: now).wait == nil
        }
        #expect(admitted.count == 5, "five free tries, then the wait, though none has failed yet")
    }

    @Test("an abandoned try (a store failure) does not count; a success leaves the ceiling")
    func abandonedAndSucceeded() {
        let throttle = LoginThrottle(policy: LoginThrottlePolicy(accountCeiling: 2))
        let now = ManualClock().now()
        let first = LoginOrigin(client: "203.0.113.1")
        let second = LoginOrigin(client: "203.0.113.2")
        let attempt = { (origin: LoginOrigin) in Self.attempt(throttle, "a@example.com", from: origin, at: now) }
        let abandoned = attempt(first)
        #expect(abandoned.wait == nil)
        abandoned.attempt?.abandoned()
        let succeeded = attempt(first)
        #expect(succeeded.wait == nil)
        succeeded.attempt?.succeeded()
        #expect(attempt(second).wait == nil)
        #expect(attempt(second).wait == nil)
        #expect(attempt(first).wait == 360, "the ceiling of 2 is full")
        #expect(attempt(LoginOrigin(client: "x", device: "d")).wait == nil, "a known device is not under the ceiling")
    }
}
