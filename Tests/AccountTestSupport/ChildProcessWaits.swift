import Foundation
import StoreSupport

// Tests wait for child processes from async code. A blocking wait there would hold one of the
// cooperative pool's threads (two on a two-core machine) for as long as the child runs,
// stalling every other test's tasks and in-process servers meanwhile; these waits block a
// thread of their own instead (`SerialIOQueue`'s, from Dispatch's pool that grows on demand,
// unlike the width-limited `DispatchQueue.global()`).

extension Process {
    /// Waits for the process to exit; returns its termination status.
    package func exitStatus() async -> Int32 {
        await SerialIOQueue(label: "exit of pid \(processIdentifier)").run {
            self.waitUntilExit()
            return self.terminationStatus
        }
    }
}

extension FileHandle {
    /// Everything left to read, up to the end of the file or pipe.
    package func readToEndOfFile() async -> Data {
        await SerialIOQueue(label: "read to end").run { self.readDataToEndOfFile() }
    }
}
