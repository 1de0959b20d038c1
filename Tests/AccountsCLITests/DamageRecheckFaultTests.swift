import AccountBackendKit
import AccountTestSupport
import Foundation
import StandardBackends
import Testing

/// A disk going bad under a sound store is an I/O error, never damage. SQLite needs care for
/// that: it answers a read that fails with EIO in the middle of a statement "database disk image
/// is malformed", so a store is checked again on fresh connections before it is called
/// corrupted — and that check reads the same disk. (The fault sweep once saw `passwd` report
/// `store_corrupted` for a sound store whose check hit failing reads.) The bad sector comes from
/// `scripts/faults/fault_shim.c`, preloaded: every read of the store that covers one byte fails,
/// on every try.
@Suite("A bad sector under a sound store")
struct DamageRecheckFaultTests {
    let password = "Tangerine-Kayak-42"
    let newPassword = "Quokka-Lantern-77"

    @Test(
        "a bad sector in any 4 KiB block of a sound store is an I/O error, never store_corrupted",
        .enabled(
            if: StandardInputFaultTests.hasCompiler, Comment(rawValue: StandardInputFaultTests.noCompiler)),
        arguments: BackendRegistry.embedded.descriptors)
    func badSector(_ backend: any BackendDescriptor) async throws {
        let template = try await signedUp("bad-sector", backend)
        let shim = try await StandardInputFaultTests.compileShim(into: template.root)
        try await template.run(
            [
                "login", "--email", "leesoon7@example.com", "--password-stdin", "--session-file",
                template.root + "/second",
            ],
            stdin: [password])
        let storeFile = "/data/accounts/" + backend.defaultStoreName
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: template.root + storeFile)[.size] as? Int)
        let block = 4096

        var rechecked = 0
        for start in stride(from: 0, to: size, by: block) {
            for (command, stdin) in [
                (["users", "show", "leesoon7@example.com"], [String]()),
                (["passwd", "--password-stdin"], [password, newPassword, newPassword]),
            ] {
                let cli = try copy(of: template, "bad-sector-run", backend)
                // A byte past the block's first 100, so that SQLite's header (the open's own
                // read) is hit only in the first block.
                let result = try await cli.run(
                    command + ["--json"], stdin: stdin,
                    environment: [
                        "LD_PRELOAD": shim, "FAULT_DIR": cli.root, "FAULT_BAD_FILE": cli.root + storeFile,
                        "FAULT_BAD_OFFSET": String(min(start + 100, size - 1)),
                    ])
                let what = "\(backend.name) \(command[0]), bad sector at block \(start / block): \(result.stdout)"
                #expect(result.errorCode == nil || result.errorCode == "store_io", "\(what)")
                if result.stdout.contains("confirm any damage") {
                    rechecked += 1
                    #expect(result.stdout.contains("Input/output error"), "the message names the failed read: \(what)")
                }
            }
        }
        // SQLite fails some of those reads only once a statement runs, and calls them damage.
        if backend.name == "sqlite" {
            #expect(rechecked > 0, "no bad sector led to a check of the store")
        }
    }

    @Test(
        "the disk gone at any call of doctor --fix, every later call failing too, is never store_corrupted",
        .enabled(
            if: StandardInputFaultTests.hasCompiler, Comment(rawValue: StandardInputFaultTests.noCompiler)),
        arguments: BackendRegistry.embedded.descriptors)
    func diskGoneDuringDoctor(_ backend: any BackendDescriptor) async throws {
        let template = try await signedUp("disk-gone", backend)
        let shim = try await StandardInputFaultTests.compileShim(into: template.root)
        let log = template.root + "/calls.log"
        let counted = try await template.run(
            ["doctor", "--fix", "--json"],
            environment: ["LD_PRELOAD": shim, "FAULT_DIR": template.root + "/data", "FAULT_LOG": log])
        #expect(counted.status == 0, "\(counted.stdout)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
        #expect(calls > 0, "doctor --fix made no file system call on the store")
        var failed = 0
        for first in 1...calls {
            let cli = try copy(of: template, "disk-gone-run", backend)
            let result = try await cli.run(
                ["doctor", "--fix", "--json"],
                environment: ["LD_PRELOAD": shim, "FAULT_DIR": cli.root + "/data", "FAULT_FROM": String(first)])
            if result.status != 0 { failed += 1 }
            #expect(
                result.errorCode != "store_corrupted",
                "\(backend.name): the disk gone from call \(first) of \(calls): \(result.stdout)")
        }
        #expect(failed > 0, "no call of doctor --fix failed with the disk gone")
    }

    /// A home on `backend` where leesoon7 has signed up.
    private func signedUp(_ name: String, _ backend: any BackendDescriptor) async throws -> CLIRunner {
        var template = try CLIRunner("\(name)-\(backend.name)")
        template.extraEnvironment["ACCOUNTS_BACKEND"] = backend.name
        try await template.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        return template
    }

    /// A fresh home holding a copy of `template`'s store and state, for one run that may break it.
    private func copy(of template: borrowing CLIRunner, _ name: String, _ backend: any BackendDescriptor) throws
        -> CLIRunner
    {
        var cli = try CLIRunner(name)
        cli.extraEnvironment["ACCOUNTS_BACKEND"] = backend.name
        for folder in ["data", "state"] {
            try FileManager.default.copyItem(atPath: template.root + "/" + folder, toPath: cli.root + "/" + folder)
        }
        return cli
    }
}
