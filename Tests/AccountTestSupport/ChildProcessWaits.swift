package import ChildProcesses
import DurableFiles
package import Foundation

// Tests wait for child processes from async code. A blocking wait there would hold one of the
// cooperative pool's threads (two on a two-core machine) for as long as the child runs,
// stalling every other test's tasks and in-process servers meanwhile; these waits block a
// thread of their own instead (`SerialIOQueue`'s, from Dispatch's pool that grows on demand,
// unlike the width-limited `DispatchQueue.global()`), asleep (`waitUntilExit()`).

extension SpawnedProcess {
    /// Waits for the process to exit; returns its termination status.
    package func exitStatus() async -> Int32 {
        await SerialIOQueue(label: "exit of pid \(processIdentifier)").run {
            self.waitUntilExit()
            return self.terminationStatus
        }
    }

    /// `exitStatus()` for at most `limit`: past it (or when the test's task is cancelled) the
    /// process is killed and `Overran` thrown, where a bare wait would hold the whole run.
    package func exitStatus(within limit: Duration) async throws -> Int32 {
        try await finishing(within: limit) { await self.exitStatus() }
    }
}

extension FileHandle {
    /// Everything left to read, up to the end of the file or pipe.
    package func readToEndOfFile() async -> Data {
        await SerialIOQueue(label: "read to end").run { self.readDataToEndOfFile() }
    }
}

/// Whether the process `pid` has exited: it is gone, or a zombie not yet reaped.
package func processHasExited(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    return schedulingState(inStat: stat) == "Z"
}

/// The `SigBlk` mask in the text of a `/proc/…/status` file, as shown there (hex), or as a
/// terminal shows it (lines that end in "\r\n").
package func blockedSignals(inStatus status: String) -> String? {
    status.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SigBlk:") }.map {
        $0.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The kernel's state letter (R running, S sleeping, Z zombie…) in the text of a `/proc/…/stat`
/// file.
package func schedulingState(inStat stat: String) -> Character? {
    // The state follows the command name, which is in parentheses and may hold spaces.
    guard let close = stat.lastIndex(of: ")") else { return nil }
    return stat[close...].dropFirst(2).first
}

/// Whether the process `pid` ends (exits, or is a zombie not yet reaped) within `seconds`, for
/// a process no `SpawnedProcess` of the caller's holds any longer. Looked at every 10 ms in
/// `/proc`: an event-driven wait (`pidfd_open`) is not in Swift's Glibc module.
package func processEnds(_ pid: Int32, within seconds: Int) async throws -> Bool {
    for _ in 0..<(seconds * 100) {
        if processHasExited(pid) { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return false
}
