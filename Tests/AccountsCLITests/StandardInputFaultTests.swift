import AccountTestSupport
import Foundation
import Testing

/// A read of `--password-stdin` that fails is an error, never the end of the line: taking the
/// bytes read so far for the password would sign up, log in or fail a login with another
/// password. The fault comes from `scripts/faults/fault_shim.c` (`FAULT_STDIN_AT`), preloaded.
@Suite("Standard input faults")
struct StandardInputFaultTests {
    let password = "Tangerine-Kayak-42"

    /// The shim, compiled into `folder` (`scripts/test.sh` installs the C compiler).
    static func compileShim(into folder: String) async throws -> String {
        let source = PackageFiles.path("scripts/faults/fault_shim.c")
        let library = folder + "/fault_shim.so"
        let compiled = try await ChildProcess.run(
            "/usr/bin/env", ["gcc", "-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"])
        try #require(compiled.status == 0, "gcc could not build the fault shim: \(compiled.standardError)")
        return library
    }

    /// Why the fault-shim cases skip without a C compiler.
    static let noCompiler = "needs gcc to build the fault shim (scripts/test.sh installs it)"

    static var hasCompiler: Bool {
        ["/usr/bin/gcc", "/usr/bin/cc"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(
        "a failed read of the password line is an error, and no login failure is recorded for it",
        .enabled(if: hasCompiler, Comment(rawValue: noCompiler)))
    func failedReadIsNotALine() async throws {
        let cli = try CLIRunner("stdin-fault")
        let shim = try await Self.compileShim(into: cli.root)
        try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        try await cli.run(["logout"])
        // The 8th byte of the line fails: "Tangeri" would have been taken for the password.
        let login = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin", "--json"], stdin: [password],
            environment: ["LD_PRELOAD": shim, "FAULT_STDIN_AT": "8"])
        #expect(login.errorCode == "usage", "\(login.stdout)")
        #expect(login.stdout.contains("Could not read the secret from standard input"))
        let shown = try await cli.run(["users", "show", "leesoon7@example.com", "--json"]).json()
        #expect(shown["failed_login_count"] as? Int == 0, "a cut-short password was tried: \(shown)")
        let signUp = try await cli.run(
            ["signup", "--email", "admiral7@example.com", "--nickname", "장군", "--password-stdin", "--json"],
            stdin: [password, password], environment: ["LD_PRELOAD": shim, "FAULT_STDIN_AT": "12"])
        #expect(signUp.errorCode == "usage", "\(signUp.stdout)")
        #expect(try await cli.run(["users", "count"]).stdout == "1\n", "no account was made from a cut-short password")
    }
}
