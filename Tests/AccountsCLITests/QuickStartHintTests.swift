import AccountTestSupport
import Foundation
import Testing

/// The quick start ends with a hint of what to run next; pasted as it is, it must work.
@Suite("Quick-start hint")
struct QuickStartHintTests {
    @Test("the sign-up the quick start suggests succeeds when pasted")
    func hintWorks() async throws {
        let script = try String(contentsOfFile: PackageFiles.path("scripts/quickstart.sh"), encoding: .utf8)
        let hint = try #require(script.firstMatch(of: /Next: \$bin (signup [^"]+)"/)?.1, "the script's hint")
        let arguments = hint.split(separator: " ").map(String.init)
        let cli = try CLIRunner("quickstart-hint")
        let password = "Tangerine-Kayak-42"
        let result = try await cli.run(arguments + ["--password-stdin"], stdin: [password, password])
        #expect(result.status == 0, "`accounts \(hint)`: \(result.stderr)")
    }

    @Test("the quick start says how to call plain `accounts`: an alias to paste, or make install under a prefix")
    func pathHint() throws {
        let script = try String(contentsOfFile: PackageFiles.path("scripts/quickstart.sh"), encoding: .utf8)
        #expect(script.contains("alias accounts='$bin'"), "the alias line")
        #expect(script.contains("make install PREFIX=~/.local"), "the install line")
        let makefile = try String(contentsOfFile: PackageFiles.path("Makefile"), encoding: .utf8)
        #expect(makefile.contains("PREFIX ?="), "make install takes PREFIX")
    }
}
