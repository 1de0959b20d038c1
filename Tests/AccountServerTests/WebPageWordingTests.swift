import AccountBackendKit
import AccountCore
import AccountServer
import AccountWeb
import Foundation
import MemoryBackend
import NIOHTTP1
import Testing

/// The pages read as one product: one heading in both languages, one notice after a logout, the
/// sign-up fields in the terminal app's order, Korean broken between words, and a field whose
/// bytes are not UTF-8 refused with its own rule rather than read repaired.
@Suite("Web page wording")
struct WebPageWordingTests {
    @Test("the start page has the same heading in English and Korean")
    func heading() async throws {
        try await WebPagesTests.withPages { _, english in
            let page = try await english.get("/")
            #expect(page.html.contains("<h1>Welcome to AccountStore</h1>"), "\(page.html)")
        }
        try await WebPagesTests.withPages(acceptLanguage: "ko") { _, korean in
            let page = try await korean.get("/")
            #expect(page.html.contains("<h1>AccountStore에 오신 것을 환영합니다</h1>"), "\(page.html)")
        }
    }

    @Test("after a logout the start page says it once, in one term")
    func oneNoticeAfterLogout() async throws {
        try await WebPagesTests.withPages { _, browser in
            _ = try await WebPagesTests.signUp(browser)
            _ = try await browser.get("/welcome")
            let loggedOut = try await browser.post("/logout", [])
            let page = try await browser.get(try #require(loggedOut.location))
            #expect(page.html.contains("You are logged out."))
            #expect(!page.html.contains("not signed in"), "a second notice saying the same in another term")
            #expect(page.html.contains("Sign up or log in."))
            let fresh = try await browser.get("/")
            #expect(
                fresh.html.contains("You are not signed in. Sign up or log in."), "without a notice, the lead says it")
        }
    }

    @Test("the sign-up form asks ID, nickname, password, confirmation, as the terminal app does")
    func fieldOrder() async throws {
        try await WebPagesTests.withPages { _, browser in
            let html = try await browser.get("/signup").html
            let positions = ["email", "nickname", "password", "confirmation"].map {
                html.range(of: "name=\"\($0)\"")?.lowerBound
            }
            let found = positions.compactMap { $0 }
            #expect(found.count == 4, "every field is on the page")
            #expect(found == found.sorted(), "the fields' order on the page")
        }
    }

    @Test("Korean text breaks between words, not inside them")
    func koreanKeepsWords() async throws {
        try await WebPagesTests.withPages { _, browser in
            let css = try await browser.get("/assets/app.css").html
            #expect(css.contains(":lang(ko) { word-break: keep-all;"), "\(css)")
        }
    }

    @Test("a form field that is not UTF-8 is refused with its own rule, and nothing is stored")
    func brokenUTF8Field() async throws {
        try await WebPagesTests.withPages { server, browser in
            let body = try await WebPagesTests.signUpForm(browser, nickname: "%FF%FE%EA%B8%B8%EB%8F%99")
            let page = try await browser.send(
                .POST, "/signup", body: body, contentType: "application/x-www-form-urlencoded")
            #expect(page.status == 400)
            let error = try #require(page.html.element(id: "nickname-error"))
            let expected = AccountError.invalidNickname(.notUTF8).message(.english)
            #expect(error.replacingOccurrences(of: "&#39;", with: "'").contains(expected), "\(error)")
            #expect(!page.html.contains("\u{FFFD}"), "the repaired text is never shown or kept")
            #expect(try await server.repository.userCount() == 0)

            let malformed = body.replacingOccurrences(of: "%FF%FE", with: "%G1")
            let refused = try await browser.send(
                .POST, "/signup", body: malformed, contentType: "application/x-www-form-urlencoded")
            #expect(refused.status == 400, "a % without two hex digits is no value either")
            #expect(try await server.repository.userCount() == 0)
        }
    }
}

/// Forms another site posts are refused before any work, whatever token they carry.
@Suite("Cross-site forms")
struct CrossSiteFormTests {
    @Test(
        "a cross-site post is refused and changes nothing; a same-origin one is taken",
        arguments: [
            [("Sec-Fetch-Site", "cross-site")], [("Origin", "https://evil.example")],
            [("Origin", "https://evil.example"), ("Sec-Fetch-Site", "cross-site")], [("Origin", "null")],
        ])
    func refused(_ headers: [(String, String)]) async throws {
        try await WebPagesTests.withPages { server, browser in
            let body = try await WebPagesTests.signUpForm(browser, nickname: "Minsu")
            let refused = try await browser.send(
                .POST, "/signup", body: body, contentType: "application/x-www-form-urlencoded", headers: headers)
            #expect(refused.status == 403, "\(headers)")
            #expect(refused.html.contains("sent from another site"), "\(refused.html)")
            #expect(try await server.repository.userCount() == 0)

            let sameOrigin = try await browser.send(
                .POST, "/signup", body: body, contentType: "application/x-www-form-urlencoded",
                headers: [("Origin", "http://127.0.0.1:\(server.port)"), ("Sec-Fetch-Site", "same-origin")])
            #expect(sameOrigin.status == 303, "the browser's own post still signs up")
            #expect(try await server.repository.userCount() == 1)
        }
    }
}
