import AccountCore
import AccountTestSupport
import Foundation
import Testing

/// The *Error codes* article is the reference operators script against: it must name every code.
@Suite("Error code documentation")
struct ErrorCodeDocsTests {
    @Test("the Error codes article names every AccountError code")
    func everyCodeDocumented() throws {
        let text = try String(contentsOfFile: PackageFiles.errorCodesArticle, encoding: .utf8)
        for code in AccountError.allCodes {
            #expect(text.contains("`\(code)`"), "ErrorCodes.md does not list \(code)")
        }
        for code in [
            "checks_failed", "store_damaged", "usage", "cancelled", "account_not_found", "session_not_saved",
            "cannot_listen",
        ] {
            #expect(text.contains("`\(code)`"), "ErrorCodes.md does not list the CLI's \(code)")
        }
    }
}
