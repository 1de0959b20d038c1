import AccountCore
import AccountCrypto
import Dispatch

/// A hasher whose `hash` waits until the test releases it, so a request can be held inside
/// Argon2id while the test does something else (fills the queue, stops the server).
final class HeldHasher: PasswordHasher {
    private let inner = Argon2idPasswordHasher.fastForTests
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    func hash(_ password: String) throws -> String {
        entered.signal()
        released.wait()
        return try inner.hash(password)
    }

    func verify(_ password: String, against phcString: String) -> Bool { inner.verify(password, against: phcString) }
    func needsRehash(_ phcString: String) -> Bool { inner.needsRehash(phcString) }
    func dummyHash() -> String { inner.dummyHash() }

    /// Returns once a request is inside `hash`.
    func waitUntilHashing() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.entered.wait()
                continuation.resume()
            }
        }
    }

    /// Lets one held `hash` finish.
    func release() { released.signal() }
}
