import AccountCore
import AccountCrypto
import Dispatch
import DurableFiles
import Synchronization

/// A hasher whose `hash` waits until the test releases it, so a request can be held inside
/// Argon2id while the test does something else (fills the queue, stops the server). `spinning`
/// makes the wait computing on its core, as Argon2id does, instead of blocked: Dispatch adds
/// threads for blocked workers, never for computing ones.
final class HeldHasher: PasswordHasher {
    private let inner = Argon2idPasswordHasher.fastForTests
    private let spinning: Bool
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let releases = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)

    init(spinning: Bool = false) { self.spinning = spinning }

    func hash(_ password: String) throws -> String {
        let ticket = taken.wrappingAdd(1, ordering: .relaxed).newValue
        entered.signal()
        if spinning {
            while releases.load(ordering: .acquiring) < ticket {}
        } else {
            released.wait()
        }
        return try inner.hash(password)
    }

    func verify(_ password: String, against phcString: String) -> Bool { inner.verify(password, against: phcString) }
    func needsRehash(_ phcString: String) -> Bool { inner.needsRehash(phcString) }
    func dummyHash() -> String { inner.dummyHash() }

    /// Returns once a request is inside `hash`.
    func waitUntilHashing() async {
        await SerialIOQueue(label: "HeldHasher").run { self.entered.wait() }
    }

    /// Lets one held `hash` finish (spinning ones in the order they were entered).
    func release() {
        if spinning { releases.wrappingAdd(1, ordering: .releasing) } else { released.signal() }
    }
}
