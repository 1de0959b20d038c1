import AccountBackendKit
import AccountCore
import AccountServer
import BackendTestSupport
import Foundation
import MemoryBackend
import NIOHTTP1
import StandardBackends
import Testing

/// The web page "where you are signed in": every device listed, one or all others signed out
/// by forms that carry this browser's form token.
@Suite("Web sessions page")
struct WebSessionsPageTests {
    static let backends: [any BackendDescriptor] = BackendRegistry.embedded.descriptors + [MemoryBackendDescriptor()]

    static func appLogin(_ server: LiveServer, device: String) async throws -> String {
        let reply = try await server.send(
            .POST, "/v1/login",
            json:
                #"{"email":"\#(WebPagesTests.email)","password":"\#(WebPagesTests.password)","device":"\#(device)"}"#
        )
        return try #require(reply.token)
    }

    @Test("lists each device and signs one, then every other, out", arguments: backends)
    func listAndRevoke(_ backend: any BackendDescriptor) async throws {
        try await WebPagesTests.withPages(backend) { server, browser in
            _ = try await WebPagesTests.signUp(browser)
            #expect(
                try await browser.get("/welcome").html.contains(#"<a href="/sessions">Where you are signed in</a>"#))
            let phone = try await Self.appLogin(server, device: "내 휴대폰 <b>")
            let page = try await browser.get("/sessions")
            #expect(page.status == 200)
            #expect(page.html.contains("<h1>Where you are signed in</h1>"))
            #expect(page.html.contains("내 휴대폰 &lt;b&gt;"), "a device name is shown as text")
            #expect(page.html.contains("Unknown device") && page.html.contains("(this device)"))
            #expect(!page.html.contains(phone))
            #expect(!page.html.contains(#"name="csrf" value="""#), "every form carries the form token")
            let ids = Self.sessionIDs(in: page.html)
            #expect(ids.count == 1, "only the other device has a sign-out button")
            let id = try #require(ids.first)

            #expect(try await browser.post("/sessions/revoke", [("id", id)], token: .some("forged")).status == 403)
            #expect(try await server.send(.GET, "/v1/me", token: phone).status == 200, "a forged form changed nothing")
            _ = try await browser.get("/sessions")
            let revoked = try await browser.post("/sessions/revoke", [("id", id)])
            #expect(revoked.status == 303 && revoked.location == "/sessions?notice=session_revoked")
            #expect(try await server.send(.GET, "/v1/me", token: phone).status == 401)
            // A second tab still showing the list sends the same form again.
            let formToken = try #require(browser.formToken)
            let gone = try await browser.post("/sessions/revoke", [("id", id)], token: .some(formToken))
            #expect(gone.location == "/sessions?notice=session_not_found")
            #expect(try await browser.get(gone.location ?? "").html.contains("That session was already signed out."))

            let tablet = try await Self.appLogin(server, device: "tablet")
            let laptop = try await Self.appLogin(server, device: "laptop")
            _ = try await browser.get("/sessions")
            let others = try await browser.post("/sessions/revoke-others", [])
            #expect(others.location == "/sessions?notice=other_sessions_revoked")
            for token in [tablet, laptop] {
                let status = try await server.send(.GET, "/v1/me", token: token).status
                #expect(status == 401)
            }
            let after = try await browser.get("/sessions")
            #expect(after.status == 200 && Self.sessionIDs(in: after.html).isEmpty)
            #expect(!after.html.contains("/sessions/revoke-others"), "nothing else to sign out")
        }
    }

    @Test("a visitor who is not signed in goes to the start screen")
    func guest() async throws {
        try await WebPagesTests.withPages { _, browser in
            let page = try await browser.get("/sessions")
            #expect(page.location == "/")
        }
    }

    /// The ids in the page's sign-out forms.
    static func sessionIDs(in html: String) -> [String] {
        html.components(separatedBy: #"<input type="hidden" name="id" value=""#).dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
    }
}
