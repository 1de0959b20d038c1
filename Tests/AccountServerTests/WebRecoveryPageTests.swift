import AccountBackendKit
import AccountCore
import AccountServer
import AccountWeb
import BackendTestSupport
import Foundation
import MemoryBackend
import NIOHTTP1
import StandardBackends
import Testing

/// The forgotten-password and proven-email pages, as a browser without JavaScript uses them:
/// the code from the mail's link never reaches a page, the address bar or another site's form.
@Suite("Web recovery pages")
struct WebRecoveryPageTests {
    static let email = WebPagesTests.email
    static let newPassword = WebPagesTests.newPassword

    /// The code of the oldest mail due, composed as the sender composes it.
    static func mailedCode(_ server: LiveServer) async throws -> String {
        try await RecoveryAttackTests.mailedCode(server)
    }

    @Test(
        "login → forgot password → the mail's link → a new password → welcome, signed in",
        arguments: WebPagesTests.backends)
    func resetFlow(_ backend: any BackendDescriptor) async throws {
        try await WebPagesTests.withPages(backend) { server, browser in
            let signUp = #"{"email":"\#(Self.email)","password":"\#(WebPagesTests.password)","nickname":"Minsu"}"#
            #expect(try await server.send(.POST, "/v1/signup", json: signUp).status == 201)
            let login = try await browser.get("/login")
            #expect(login.html.contains(#"href="/forgot-password""#))
            _ = try await browser.get("/forgot-password")
            let asked = try await browser.post("/forgot-password", [("email", Self.email)])
            #expect(asked.status == 200 && asked.html.contains(Self.email))
            _ = try await browser.get("/forgot-password")
            let unknown = try await browser.post("/forgot-password", [("email", "nobody77@example.com")])
            #expect(unknown.status == 200)
            #expect(
                unknown.html.replacingOccurrences(of: "nobody77@example.com", with: Self.email)
                    .replacingOccurrences(of: #"name="csrf" value="[^"]*""#, with: "", options: .regularExpression)
                    == asked.html.replacingOccurrences(
                        of: #"name="csrf" value="[^"]*""#, with: "", options: .regularExpression),
                "the page tells a registered address from an unknown one")
            let code = try await Self.mailedCode(server)
            let link = try await browser.get("/reset-password?code=\(code)")
            #expect(link.status == 303 && link.location == "/reset-password", "the code leaves the address bar")
            let form = try await browser.get("/reset-password")
            #expect(form.status == 200 && !form.html.contains(code), "the code is in the page")
            _ = try await browser.get("/reset-password")
            let weak = try await browser.post("/reset-password", [("password", "minsu01"), ("confirmation", "x")])
            #expect(weak.status == 400 && weak.html.contains("aria-invalid"))
            let done = try await browser.post(
                "/reset-password", [("password", Self.newPassword), ("confirmation", Self.newPassword)])
            #expect(done.status == 303 && done.location == "/welcome")
            #expect(browser.cookie("accounts_session") != nil)
            #expect(browser.cookie("accounts_reset") == nil, "the reset cookie outlived its use")
            #expect(try await browser.get("/welcome").status == 200)
        }
    }

    @Test("a spent, guessed or reshaped code, and a form without the link, change nothing")
    func refusals() async throws {
        try await WebPagesTests.withPages { server, browser in
            _ = try await WebPagesTests.signUp(browser)
            let before = try #require(try await server.repository.user(email: Self.email)).passwordHash
            _ = try await browser.get("/forgot-password")
            let noLink = try await browser.post(
                "/reset-password", [("password", Self.newPassword), ("confirmation", Self.newPassword)])
            #expect(noLink.status == 400)
            let reshaped = try await browser.get("/reset-password?code=abc%0d%0aSet-Cookie:%20x=1")
            #expect(reshaped.status == 400 && reshaped.headers["Set-Cookie"].allSatisfy { !$0.contains("x=1") })
            browser.setCookie("accounts_reset", String(repeating: "0", count: 64))
            _ = try await browser.get("/reset-password")
            let guessed = try await browser.post(
                "/reset-password", [("password", Self.newPassword), ("confirmation", Self.newPassword)])
            #expect(guessed.status == 400)
            #expect(try await server.repository.user(email: Self.email)?.passwordHash == before)
        }
    }

    @Test("another site's form cannot ask for a mail or set a password")
    func crossSite() async throws {
        try await WebPagesTests.withPages { server, browser in
            _ = try await WebPagesTests.signUp(browser)
            _ = try await browser.get("/forgot-password")
            let token = try #require(browser.formToken)
            for path in ["/forgot-password", "/reset-password"] {
                let reply = try await server.send(
                    .POST, path, json: "email=minsu01%40example.com&password=x&confirmation=x&csrf=\(token)",
                    headers: [("Sec-Fetch-Site", "cross-site")], contentType: "application/x-www-form-urlencoded")
                #expect(reply.status == 403, "\(path)")
            }
            #expect(try await server.repository.outboxSummary().queued == 0)
        }
    }

    @Test("the verification link proves the email once")
    func verifyLink() async throws {
        try await WebPagesTests.withPages { server, browser in
            let signedUp = try await WebPagesTests.signUp(browser)
            _ = signedUp
            let session = try #require(browser.cookie("accounts_session"))
            try await server.recovery.requestEmailVerification(token: session, language: .english)
            let code = try await Self.mailedCode(server)
            let page = try await browser.get("/verify-email?code=\(code)")
            #expect(page.status == 200)
            #expect(try await server.repository.user(email: Self.email)?.emailVerifiedAt != nil)
            #expect(try await browser.get("/verify-email?code=\(code)").status == 400)
        }
    }
}
