import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A store that cannot be written (read-only folder, missing folder, full disk) gives a clear
/// typed error, and what was there before is intact and readable afterwards.
@Suite("Resource faults")
struct ResourceFaultTests {
    static let backends = BackendRegistry.embedded.descriptors
    let password = "Tangerine-Kayak-42"

    /// Signs up `count` users on `store` through the CLI.
    func populate(_ cli: borrowing CLIRunner, _ backend: any BackendDescriptor, _ store: String, count: Int)
        async throws
    {
        for n in 0..<count {
            let result = try await cli.run(
                [
                    "signup", "--email", "resident\(n)@example.com", "--nickname", "주민\(n)", "--password-stdin",
                    "--backend", backend.name, "--store", store,
                ], stdin: [password, password])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    func count(_ cli: borrowing CLIRunner, _ backend: any BackendDescriptor, _ store: String) async throws -> String {
        try await cli.run(["users", "count", "--backend", backend.name, "--store", store]).stdout
    }

    @Test(
        "a missing folder: a write is a clear store_io error, a read is store_not_found; nothing is created",
        arguments: backends)
    func missingFolder(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("missing-\(backend.name)")
        let store = cli.root + "/no/such/folder/store"
        let write = try await cli.run(
            [
                "signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin", "--backend",
                backend.name, "--store", store,
            ],
            stdin: ["Tangerine-Kayak-42", "Tangerine-Kayak-42"])
        #expect(write.status == 7)
        #expect(write.stderr.contains("no such file or directory"), "\(write.stderr)")
        let read = try await cli.run(["users", "count", "--backend", backend.name, "--store", store, "--json"])
        #expect(read.status == 7)
        #expect(read.stdout.contains("\"store_not_found\"") && read.stdout.contains(store), "\(read.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cli.root + "/no"))
    }

    @Test("a read-only folder refuses the write with store_io; the store stays intact", arguments: backends)
    func readOnlyFolder(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("readonly-\(backend.name)")
        let folder = cli.root + "/ro"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/" + backend.defaultStoreName
        try await populate(cli, backend, store, count: 2)
        let sessions = cli.root + "/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        // Root ignores permissions, so the write is attempted as `nobody`, who owns the store
        // but may not change its folder.
        let asRoot = getuid() == 0
        if asRoot {
            for path in [folder, sessions]
                + (try FileManager.default.contentsOfDirectory(atPath: folder)).map({ folder + "/" + $0 })
            {
                #expect(chown(path, 65_534, 65_534) == 0)
            }
            #expect(chmod(cli.root, 0o755) == 0)
        }
        // Read-only files in a read-only folder: no backend may write or create anything.
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            #expect(chmod(folder + "/" + name, 0o444) == 0)
        }
        #expect(chmod(folder, 0o555) == 0)
        defer { chmod(folder, 0o755) }
        let command = [
            "signup", "--email", "newcomer7@example.com", "--nickname", "신입", "--password-stdin", "--backend",
            backend.name,
            "--store", store, "--session-file", sessions + "/s",
        ]
        let result =
            asRoot
            ? try await cli.run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.executable] + command,
                stdin: [password, password], executable: "/usr/bin/setpriv")
            : try await cli.run(command, stdin: [password, password])
        #expect(result.status == 7, "\(result.stdout) \(result.stderr)")
        #expect(
            result.stderr.contains("Store I/O error") || result.stderr.contains("not permitted"), "\(result.stderr)")
        chmod(folder, 0o755)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) { chmod(folder + "/" + name, 0o600) }
        if asRoot { chown(folder, 0, 0) }
        await #expect(try count(cli, backend, store) == "2\n", "the two residents are intact")
        let listed = try await cli.run(["users", "list", "--backend", backend.name, "--store", store]).stdout
        #expect(!listed.contains("newcomer7"))
    }

    @Test("a full disk (file size limit) fails the write with store_io; the store stays intact", arguments: backends)
    func fullDisk(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("full-\(backend.name)")
        let store = cli.root + "/" + backend.defaultStoreName
        try await populate(cli, backend, store, count: 3)
        // `ulimit -f 1` lets no file grow past 512 bytes; with SIGXFSZ ignored the write fails
        // with EFBIG, as it would with ENOSPC on a full disk.
        let script = """
            trap '' XFSZ; ulimit -f 1; printf '%s\\n%s\\n' "$PW" "$PW" | exec "$ACCOUNTS" signup \
              --email newcomer7@example.com --nickname 신입 --password-stdin --backend \(backend.name) --store "$STORE"
            """
        let result = try await cli.run(
            ["-c", script], environment: ["PW": password, "ACCOUNTS": CLIRunner.executable, "STORE": store],
            executable: "/bin/sh")
        #expect(result.status == 7, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("Store I/O error"), "\(result.stderr)")
        // It says what is known, once: not "rolled back" and "may or may not have taken effect" at once.
        #expect(
            !(result.stderr.contains("rolled back") && result.stderr.contains("may or may not")), "\(result.stderr)")
        await #expect(try count(cli, backend, store) == "3\n", "the residents are intact and readable")
        let check = try await cli.run(["doctor", "--backend", backend.name, "--store", store])
        #expect(check.status == 0, "\(check.stdout)")
    }
}
