import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A store the user may read but not write: reading commands work, writing commands give a
/// typed error and change nothing. As root the commands run as `nobody` (root ignores modes).
@Suite("Read-only stores")
struct ReadOnlyStoreTests {
    static let password = "Tangerine-Kayak-42"

    @Test(
        "reading works and writing is a typed store_io on a store that is not writable",
        arguments: BackendRegistry.embedded.descriptors)
    func readOnly(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("ro-store-\(backend.name)")
        let folder = cli.root + "/ro"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/" + backend.defaultStoreName
        let common = ["--backend", backend.name, "--store", store]
        for n in 1...2 {
            let signup = try await cli.run(
                [
                    "signup", "--email", "resident\(n)x@example.com", "--nickname", "주민 \(n)", "--password-stdin",
                    "--session-file", cli.root + "/owner",
                ] + common,
                stdin: [Self.password, Self.password])
            #expect(signup.status == 0, "\(signup.stderr)")
        }
        let sessions = cli.root + "/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        chmod(sessions, 0o777)
        chmod(cli.root, 0o755)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) { chmod(folder + "/" + name, 0o444) }
        chmod(folder, 0o555)
        defer {
            chmod(folder, 0o755)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                chmod(folder + "/" + name, 0o600)
            }
        }
        let before = try Self.digest(folder)
        func asReader(_ arguments: [String], stdin: [String] = []) async throws -> CLIRunner.Result {
            getuid() == 0
                ? try await cli.run(
                    ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.executable] + arguments,
                    stdin: stdin,
                    executable: "/usr/bin/setpriv")
                : try await cli.run(arguments, stdin: stdin)
        }
        let count = try await asReader(["users", "count"] + common)
        #expect(count.status == 0 && count.stdout == "2\n", "\(count.stdout) \(count.stderr)")
        let list = try await asReader(["users", "list"] + common)
        #expect(list.stdout.contains("resident1x@example.com"), "\(list.stderr)")
        let doctor = try await asReader(["doctor"] + common)
        #expect(doctor.status == 0, "\(doctor.stdout) \(doctor.stderr)")
        let signup = try await asReader(
            [
                "signup", "--email", "newcomer7@example.com", "--nickname", "신입", "--password-stdin", "--json",
                "--session-file", sessions + "/s",
            ] + common,
            stdin: [Self.password, Self.password])
        #expect(signup.status == 7, "\(signup.stdout) \(signup.stderr)")
        #expect(signup.stdout.contains("\"store_io\""), "\(signup.stdout)")
        #expect(try Self.digest(folder) == before, "a refused write changed the store's files")
    }

    /// Each file's bytes (an LMDB lock file by presence: readers register in it).
    static func digest(_ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            result[name] = name.hasSuffix("-lock") ? Data() : FileManager.default.contents(atPath: folder + "/" + name)
        }
        return result
    }
}
