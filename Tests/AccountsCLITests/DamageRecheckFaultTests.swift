import AccountTestSupport
import Foundation
import Testing

/// SQLite answers a read that fails with EIO "database disk image is malformed", so a store is
/// checked again on a fresh connection before it is called corrupted. That check reads the same
/// disk: when its reads fail too, the verdict is an I/O error, never damage. (The fault sweep
/// once saw `passwd` report `store_corrupted` for a sound store whose check hit failing reads.)
/// The bad sector comes from `scripts/faults/fault_shim.c`, preloaded: every read of the store
/// that covers one byte fails, on every try.
@Suite("Re-checking a reported corruption under I/O faults")
struct DamageRecheckFaultTests {
    let password = "Tangerine-Kayak-42"
    let newPassword = "Quokka-Lantern-77"

    @Test(
        "a bad sector under any page of a sound store is an I/O error, never store_corrupted",
        .enabled(
            if: StandardInputFaultTests.hasCompiler, "needs gcc to build the fault shim (scripts/test.sh installs it)"))
    func badSector() throws {
        let template = try CLIRunner("bad-sector-template")
        let shim = try #require(try StandardInputFaultTests.compileShim(into: template.root))
        try template.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        try template.run(
            [
                "login", "--email", "leesoon7@example.com", "--password-stdin", "--session-file",
                template.root + "/second",
            ],
            stdin: [password])
        let store = try [UInt8](Data(contentsOf: URL(fileURLWithPath: template.storePath)))
        // SQLite's header: the page size at bytes 16-17, big-endian.
        let pageSize = Int(store[16]) << 8 | Int(store[17])
        try #require(pageSize >= 512 && store.count % pageSize == 0, "page size \(pageSize), \(store.count) bytes")

        var rechecked = 0
        for page in 1...(store.count / pageSize) {
            for (command, stdin) in [
                (["users", "show", "leesoon7@example.com"], [String]()),
                (["passwd", "--password-stdin"], [password, newPassword, newPassword]),
            ] {
                let cli = try CLIRunner("bad-sector")
                for folder in ["data", "state"] {
                    try FileManager.default.copyItem(
                        atPath: template.root + "/" + folder, toPath: cli.root + "/" + folder)
                }
                // A byte past the page's header, so that the open's own reads get through.
                let result = try cli.run(
                    command + ["--json"], stdin: stdin,
                    environment: [
                        "LD_PRELOAD": shim, "FAULT_DIR": cli.root, "FAULT_BAD_FILE": cli.storePath,
                        "FAULT_BAD_OFFSET": String((page - 1) * pageSize + 100),
                    ])
                let what = "\(command[0]) with a bad sector in page \(page): \(result.stdout)"
                #expect(result.errorCode == nil || result.errorCode == "store_io", "\(what)")
                if result.stdout.contains("confirm any damage") {
                    rechecked += 1
                    #expect(result.stdout.contains("Input/output error"), "the message names the failed read: \(what)")
                }
            }
        }
        // Reads of some pages fail only once a statement runs: those SQLite calls damage.
        #expect(rechecked > 0, "no bad sector led to a check of the store")
    }
}
