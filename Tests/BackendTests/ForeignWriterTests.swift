import AccountTestSupport
import BackendTestSupport
import Foundation
import Testing

/// The lock holder that other tests use to make a store busy must hold the lock in this process
/// only. Tests run side by side, and any child started meanwhile (by `Process`, `posix_spawn`
/// or a shell) gets every descriptor not marked close-on-exec, unless its spawner closes them
/// as `PseudoTerminal` now does: a `flock` belongs to the open file, so a child that inherited
/// the holder's descriptor kept the store busy after `release()`, for as long as it ran.
@Suite("Foreign writer")
struct ForeignWriterTests {
    @Test("a child started while the JSON store's lock is held does not inherit the lock's descriptor")
    func lockNotPassedOn() throws {
        let scratch = try ScratchFolder("foreign-writer")
        let store = scratch.path + "/accounts.json"
        let holder = try ForeignWriter(backend: "json", storePath: store)
        defer { holder.release() }
        let descriptors = try PseudoTerminal.descriptorsOfNewChild()
        #expect(!descriptors.contains(".lock"), "the child holds the lock's file open: \(descriptors)")
    }
}
