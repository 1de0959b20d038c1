import AccountTestSupport
import BackendTestSupport
import Foundation
import Testing

/// `scripts/test.sh` installs or starts everything the skippable cases need (a PostgreSQL server
/// with its Unix socket, openssl, gcc, zsh and fish) and says so with `TEST_REQUIRE_PROVIDED=1`. Under it, a
/// missing part fails here by name, instead of the cases that need it skipping and the run
/// passing without them. Each check is the very condition those cases skip on, so no reason's
/// wording is matched and none can drift.
@Suite("what scripts/test.sh provides is there")
struct ProvidedPartsTests {
    static let isRequired = ProcessInfo.processInfo.environment["TEST_REQUIRE_PROVIDED"] == "1"

    /// One thing test.sh provides: whether it is there, and what the cases needing it say
    /// when it is not.
    struct Part: CustomTestStringConvertible, Sendable {
        let name: String
        let isPresent: @Sendable () -> Bool
        let skipReason: String
        var testDescription: String { name }
    }

    static let parts = [
        Part(
            name: "the PostgreSQL server", isPresent: { PostgresTestServer.isConfigured },
            skipReason: PostgresTestServer.skipReason),
        Part(
            name: "the PostgreSQL server's Unix socket", isPresent: { PostgresTestServer.socketFolder != nil },
            skipReason: PostgresTestServer.socketSkipReason),
        Part(name: "openssl", isPresent: { TestCertificate.isAvailable }, skipReason: TestCertificate.skipReason),
        Part(
            name: "gcc", isPresent: { StandardInputFaultTests.hasCompiler },
            skipReason: StandardInputFaultTests.noCompiler),
        Part(
            name: "zsh and fish", isPresent: { ShellCompletionTests.areInstalled },
            skipReason: ShellCompletionTests.notInstalled),
    ]

    @Test(
        "is present, so no case skips for want of it",
        .enabled(
            if: isRequired,
            "checked only where everything is provided: scripts/test.sh sets TEST_REQUIRE_PROVIDED=1"),
        arguments: parts)
    func present(_ part: Part) {
        #expect(part.isPresent(), "the cases that need \(part.name) would skip: \(part.skipReason)")
    }
}
