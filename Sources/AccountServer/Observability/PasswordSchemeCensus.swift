import AccountCore
import AccountCrypto
import Synchronization

/// How many accounts are still on each legacy password scheme, for `/metrics`: users moved in
/// from another system who have not signed in since. Counting walks every user, seconds for a
/// million, so a scrape recounts only when the last count is older than ``interval`` (a
/// scrape every 15 seconds must not walk the store each time); until then it reports the last
/// count.
final class PasswordSchemeCensus: Sendable {
    /// The age at which a count is taken again.
    static let interval: Int64 = 300

    private struct State {
        var counts: [String: Int] = [:]
        var takenAt: Timestamp?
        var counting = false
    }
    private let state = Mutex(State())
    private let clock: any AccountClock

    init(clock: any AccountClock = SystemClock()) {
        self.clock = clock
    }

    /// The last count, by scheme name; every scheme once counted stays, at 0 when its last
    /// account moved on, so a gauge falls to 0 rather than vanishing.
    var counts: [String: Int] { state.withLock(\.counts) }

    /// Counts again when the last count is older than ``interval`` and no other count runs. A
    /// store that fails to answer keeps the last count (the scrape still answers).
    func refreshIfStale(_ repository: any UserRepository) async {
        let now = clock.now()
        let start = state.withLock { state in
            guard !state.counting, state.takenAt.map({ $0.secondsUntil(now) >= Self.interval }) ?? true else {
                return false
            }
            state.counting = true
            return true
        }
        guard start else { return }
        var counted: [String: Int] = [:]
        var complete = true
        do {
            for try await page in repository.userPages(size: 1_000) {
                for user in page {
                    let scheme = PasswordSchemes.name(of: user.passwordHash)
                    if scheme != PasswordSchemes.currentName { counted[scheme, default: 0] += 1 }
                }
            }
        } catch {
            complete = false
        }
        state.withLock { state in
            state.counting = false
            guard complete else { return }
            for scheme in state.counts.keys { state.counts[scheme] = 0 }
            state.counts.merge(counted) { _, new in new }
            state.takenAt = now
        }
    }
}
