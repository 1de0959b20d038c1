import AccountTestSupport
import BackendTestSupport
import Foundation
import Testing

/// `scripts/test.sh` fails a run that skipped a case for want of what it provides itself (the
/// PostgreSQL server, openssl, gcc), by matching the skip reasons' text. Reword one of them and
/// the guard would let those skips pass unseen: this ties the two together.
@Suite("test.sh's guard against skipped cases")
struct SkipGuardTests {
    /// The reasons test.sh's `provided` pattern matches, as Swift Testing prints them after
    /// `skipped: "`.
    static func guardMatches(_ reason: String) throws -> Bool {
        let script = try String(contentsOfFile: PackageFiles.path("scripts/test.sh"), encoding: .utf8)
        let assignment = try #require(
            script.split(separator: "\n").first { $0.hasPrefix("provided='") }, "test.sh sets no provided pattern")
        let pattern = assignment.dropFirst("provided='".count).dropLast()
        let expression = try NSRegularExpression(pattern: "^(\(pattern))")
        return expression.firstMatch(in: reason, range: NSRange(reason.startIndex..., in: reason)) != nil
    }

    @Test(
        "every skip for a server or tool that test.sh provides is one its guard fails on",
        arguments: [
            PostgresTestServer.noServer,
            PostgresTestServer.unusableSettings + #"TEST_POSTGRES_PORT is "54x", not a port number"#,
            PostgresTestServer.socketSkipReason,
            TestCertificate.skipReason,
            StandardInputFaultTests.noCompiler,
        ])
    func providedSkipsFail(_ reason: String) throws {
        #expect(try Self.guardMatches(reason))
    }

    @Test("a skip for what a backend cannot do is not one of them")
    func designedSkipsPass() throws {
        #expect(try !Self.guardMatches("LMDB has no write-lock timeout: its writers queue on LMDB's own mutex"))
        #expect(try !Self.guardMatches("skipped, naming the missing capability: memory / '8 processes'"))
    }
}
