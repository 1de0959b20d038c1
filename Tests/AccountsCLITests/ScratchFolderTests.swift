import AccountTestSupport
import ChildProcesses
import Foundation
import Testing

/// The test harness's scratch folders: those of a test process that was killed (no `deinit`
/// ran) are removed by the next one, and nobody else's are.
@Suite("Scratch folders")
struct ScratchFolderTests {
    @Test("a folder of a test process that has ended is removed; a running one's and other names are kept")
    func sweepAbandoned() async throws {
        let scratch = try ScratchFolder("sweep")
        let ended = try SpawnedProcess("/bin/true", [])
        #expect(await ended.exitStatus() == 0)
        let gone = ended.processIdentifier
        let names = (
            ended: "accounts-test-cli-scenario-sqlite-p\(gone)-\(UUID().uuidString)",
            endedShort: "accounts-test-x-p\(gone)-\(UUID().uuidString)",
            running: "accounts-test-x-p\(getpid())-\(UUID().uuidString)",
            unnumbered: "accounts-test-x-\(UUID().uuidString)",
            notOurs: "elsewhere-p\(gone)-\(UUID().uuidString)"
        )
        for name in [names.ended, names.endedShort, names.running, names.unnumbered, names.notOurs] {
            try FileManager.default.createDirectory(
                atPath: scratch.path + "/" + name + "/store", withIntermediateDirectories: true)
        }
        let swept = ScratchFolder.sweepAbandoned(in: scratch.path)
        #expect(swept.sorted() == [names.ended, names.endedShort].sorted())
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        #expect(left == [names.running, names.unnumbered, names.notOurs].sorted())
        let own = try #require(scratch.path.split(separator: "/").last)
        #expect(own.hasPrefix("accounts-test-sweep-p\(getpid())-"), "this process's folder names it")
    }
}
