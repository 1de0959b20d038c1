import AccountBackendKit
import AccountCore
import AccountServer
import AccountWeb
import BackendTestSupport
import MemoryBackend
import NIOHTTP1
import StandardBackends
import Testing

/// The web pages over HTTP as a browser without JavaScript uses them: the flow on every
/// backend, and what keeps them safe (form tokens, cookies, headers, escaping, limits).
/// The same pages in a real browser, with and without scripts, are scripts/browser-check.sh.
@Suite("Web pages")
struct WebPagesTests {
    static let backends: [any BackendDescriptor] = BackendRegistry.embedded.descriptors + [MemoryBackendDescriptor()]
    static let password = "Tangerine-Kayak-42"
    static let newPassword = "Quokka-Lantern-77"
    static let email = "minsu01@example.com"

    /// Runs `body` with a server serving the pages and a browser-like client.
    static func withPages(
        _ backend: any BackendDescriptor = MemoryBackendDescriptor(), secureCookies: Bool = false,
        limits: ClientLimits = ClientLimits(
            signUpsPerMinute: 1_000, loginsPerMinute: 1_000, passwordChecksPerMinute: 1_000),
        acceptLanguage: String? = nil,
        _ body: @Sendable (LiveServer, PageClient) async throws -> Void
    ) async throws {
        try await LiveServer.with(backend, limits: limits, webPages: true, secureCookies: secureCookies) { server in
            let browser = PageClient(port: server.port, acceptLanguage: acceptLanguage)
            do {
                try await body(server, browser)
            } catch {
                try await browser.shutdown()
                throw error
            }
            try await browser.shutdown()
        }
    }

    /// A sign-up form body, encoded by hand (`nickname` as it is put in, escapes and all),
    /// with the token of the sign-up page it opens.
    static func signUpForm(_ browser: PageClient, nickname: String) async throws -> String {
        _ = try await browser.get("/signup")
        let token = try #require(browser.formToken)
        return "email=minsu01%40example.com&nickname=\(nickname)&password=\(password)&confirmation=\(password)"
            + "&csrf=\(token)"
    }

    static func signUp(_ browser: PageClient, remember: Bool = false) async throws -> PageClient.Page {
        _ = try await browser.get("/signup")
        var fields = [
            ("email", email), ("password", password), ("confirmation", password), ("nickname", "Minsu"),
        ]
        if remember { fields.append(("remember", "on")) }
        return try await browser.post("/signup", fields)
    }

    @Test("start → sign-up → welcome → logout → login → change password → withdraw", arguments: backends)
    func flow(_ backend: any BackendDescriptor) async throws {
        try await Self.withPages(backend) { server, browser in
            let start = try await browser.get("/")
            #expect(start.status == 200)
            #expect(start.html.contains(#"href="/signup""#) && start.html.contains(#"href="/login""#))
            let formCookie = try #require(start.setCookies["accounts_form"])
            #expect(formCookie.contains("HttpOnly") && formCookie.contains("SameSite=Strict"))

            let created = try await Self.signUp(browser)
            #expect(created.status == 303 && created.location == "/welcome")
            let session = try #require(created.setCookies["accounts_session"])
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Lax") && session.contains("Path=/"))
            #expect(
                !session.contains("Expires") && !session.contains("Secure"), "a plain session ends with the browser")
            #expect(try await browser.get("/").location == "/welcome", "a member at start goes to welcome")
            let welcome = try await browser.get("/welcome")
            #expect(welcome.html.contains("<h1>Welcome, Minsu.</h1>"))
            #expect(welcome.html.contains("Signed in as minsu01@example.com."))

            let token = try #require(browser.cookie("accounts_session"))
            let loggedOut = try await browser.post("/logout", [])
            #expect(loggedOut.status == 303 && loggedOut.location == "/?notice=logged_out")
            #expect(loggedOut.setCookies["accounts_session"]?.contains("Max-Age=0") == true)
            #expect(browser.cookie("accounts_session") == nil)
            let apiAfterLogout = try await server.send(.GET, "/v1/me", token: token)
            #expect(apiAfterLogout.status == 401, "logout revoked the session in the store")
            #expect(try await browser.get("/welcome").location == "/")

            _ = try await browser.get("/login")
            let loggedIn = try await browser.post(
                "/login", [("email", Self.email), ("password", Self.password), ("remember", "on")])
            #expect(loggedIn.status == 303 && loggedIn.location == "/welcome")
            #expect(
                loggedIn.setCookies["accounts_session"]?.contains("Expires=") == true,
                "remember me outlives the browser")

            // Another session (an app) is revoked by the change; the page's own stays.
            let app = try await server.send(
                .POST, "/v1/login", json: #"{"email":"\#(Self.email)","password":"\#(Self.password)"}"#)
            _ = try await browser.get("/password")
            let wrong = try await browser.post(
                "/password",
                [("current", "Not-The-Password-1"), ("new", Self.newPassword), ("confirmation", Self.newPassword)])
            #expect(wrong.status == 403, "a wrong current password is not signed out")
            #expect(wrong.html.element(id: "current-error")?.contains("The current password is incorrect.") == true)
            let changed = try await browser.post(
                "/password",
                [("current", Self.password), ("new", Self.newPassword), ("confirmation", Self.newPassword)])
            #expect(changed.status == 303 && changed.location == "/welcome?notice=password_changed")
            #expect(try await server.send(.GET, "/v1/me", token: app.token).status == 401)
            #expect(try await browser.get(changed.location ?? "").html.contains("every other session was signed out"))

            _ = try await browser.get("/withdraw")
            let unconfirmed = try await browser.post("/withdraw", [("password", Self.newPassword)])
            #expect(unconfirmed.status == 400)
            #expect(unconfirmed.html.element(id: "confirm-error")?.contains("Tick the box") == true)
            #expect(try await server.repository.userCount() == 1, "an unconfirmed withdrawal deleted nothing")
            let gone = try await browser.post("/withdraw", [("password", Self.newPassword), ("confirm", "on")])
            #expect(gone.status == 303 && gone.location == "/?notice=withdrawn")
            #expect(browser.cookie("accounts_session") == nil)
            #expect(try await server.repository.userCount() == 0)
            let after = try await browser.get("/?notice=withdrawn")
            #expect(after.status == 200 && after.html.contains("Your account was deleted."))
        }
    }

    @Test("a form without this browser's form token is refused and changes nothing")
    func formToken() async throws {
        try await Self.withPages { server, browser in
            // No token at all (a first visit posting straight away, as a cross-site form would).
            let blind = try await browser.post(
                "/signup",
                [
                    ("email", Self.email), ("password", Self.password), ("confirmation", Self.password),
                    ("nickname", "Minsu"),
                ],
                token: .some(nil))
            #expect(blind.status == 403)
            #expect(blind.html.contains("Nothing was changed."))
            #expect(try await server.repository.userCount() == 0)
            // A signed-in member: a forged token on withdrawal and logout deletes nothing.
            _ = try await Self.signUp(browser)
            let forged = String(repeating: "a", count: 64)
            let withdrawal = try await browser.post(
                "/withdraw", [("password", Self.password), ("confirm", "on")], token: .some(forged))
            #expect(withdrawal.status == 403)
            #expect(try await server.repository.userCount() == 1)
            #expect(try await browser.post("/logout", [], token: .some(forged)).status == 403)
            #expect(try await browser.get("/welcome").status == 200, "still signed in")
        }
    }

    @Test("every page carries the security headers and no inline script or style")
    func securityHeaders() async throws {
        try await Self.withPages { _, browser in
            var pages = [try await browser.get("/"), try await browser.get("/signup"), try await browser.get("/login")]
            pages.append(try await browser.post("/signup", [("email", "Bad")]))
            _ = try await Self.signUp(browser)
            for path in ["/welcome", "/password", "/withdraw"] { pages.append(try await browser.get(path)) }
            for page in pages {
                let policy = page.headers.first(name: "Content-Security-Policy") ?? ""
                #expect(policy.contains("frame-ancestors 'none'") && policy.contains("script-src 'self'"))
                #expect(!policy.contains("unsafe-inline"))
                #expect(page.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(page.headers.first(name: "Referrer-Policy") == "same-origin")
                #expect(page.headers.first(name: "Cache-Control") == "no-store")
                #expect(page.html.firstMatch(of: /<script(?![^>]*\ssrc=)[^>]*>/) == nil, "an inline script")
                #expect(page.html.firstMatch(of: /<style|\sstyle=|\son[a-z]+=/) == nil, "an inline style or handler")
                #expect(page.html.contains("<html lang=\"en\">"))
            }
            let script = try await browser.get("/assets/app.js")
            #expect(
                script.status == 200 && script.headers.first(name: "Content-Type")?.hasPrefix("text/javascript") == true
            )
        }
    }

    @Test("an unknown path is an HTML page for a browser and JSON for an API client")
    func notFound() async throws {
        try await Self.withPages { server, browser in
            let page = try await browser.send(.GET, "/nowhere", body: nil, contentType: nil, accept: "text/html")
            #expect(page.status == 404)
            #expect(page.html.contains("<h1>Page not found</h1>") && page.html.contains(#"href="/""#))
            #expect(page.headers.first(name: "Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            let api = try await server.send(.GET, "/v1/nowhere")
            #expect(api.status == 404 && !api.text.contains("<html"))
            #expect(api.code == "not_found", "the API's JSON 404: \(api.text)")
            #expect(try await server.send(.GET, "/v1/login").status == 405, "a known path keeps its 405")
            let wrongMethod = try await browser.send(
                .GET, "/v1/login", body: nil, contentType: nil, accept: "text/html")
            #expect(wrongMethod.status == 405, "a browser's GET of a known path too")
            #expect(wrongMethod.headers.first(name: "Allow") == "POST")
            let pageWrongMethod = try await server.send(.PUT, "/welcome", json: "{}")
            #expect(pageWrongMethod.status == 405, "a page's path keeps its 405")
            #expect(pageWrongMethod.headers.first(name: "Allow") == "GET, HEAD")
        }
    }

    @Test("over HTTPS every cookie is Secure and named __Host-, so no sibling site or plain-HTTP page can plant one")
    func secureCookies() async throws {
        try await Self.withPages(secureCookies: true) { _, browser in
            let start = try await browser.get("/")
            let form = try #require(start.setCookies["__Host-accounts_form"])
            #expect(form.contains("Secure") && form.contains("Path=/") && !form.contains("Domain"))
            #expect(start.setCookies["accounts_form"] == nil)
            let created = try await Self.signUp(browser)
            for name in ["__Host-accounts_session", "__Host-accounts_device"] {
                #expect(created.setCookies[name]?.contains("Secure") == true, "\(name): \(created.setCookies)")
            }
            // A bare-named cookie planted beside them is not the site's: it is never read.
            let session = try #require(browser.cookie("__Host-accounts_session"))
            browser.setCookie("accounts_session", session)
            browser.setCookie("__Host-accounts_session", nil)
            let welcome = try await browser.get("/welcome")
            #expect(welcome.status == 303, "signed out without the __Host- cookie")
        }
    }

    @Test("every broken rule is listed under its field; a taken ID keeps the other fields, never a password")
    func rulesAndTakenID() async throws {
        try await Self.withPages { server, browser in
            _ = try await browser.get("/signup")
            let broken = try await browser.post(
                "/signup", [("email", "Ab@x"), ("password", "abc"), ("confirmation", "abd"), ("nickname", "<b>k")])
            #expect(broken.status == 400)
            let emailErrors = try #require(broken.html.element(id: "email-error"))
            #expect(emailErrors.contains("at least 6 characters") && emailErrors.contains("uppercase"))
            #expect(broken.html.element(id: "password-error")?.contains("at least 8 characters") == true)
            #expect(broken.html.contains(#"aria-describedby="email-rules email-error" aria-invalid="true""#))
            #expect(broken.html.contains(#"value="&lt;b&gt;k""#), "typed text is escaped, never markup")
            #expect(!broken.html.contains("<b>k"))
            #expect(try await server.repository.userCount() == 0)

            _ = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"\#(Self.email)","password":"\#(Self.password)","nickname":"Taken"}"#)
            let taken = try await Self.signUp(browser)
            #expect(taken.status == 409)
            #expect(taken.html.element(id: "email-error") == "This email is already registered.")
            #expect(taken.html.contains(#"id="nickname" name="nickname" type="text" value="Minsu""#))
            #expect(taken.html.contains(#"id="password" name="password" type="password" value="""#))
            #expect(!taken.html.contains(Self.password), "no password is written into a page")
            #expect(try await server.repository.userCount() == 1)
        }
    }

    @Test("the live check answers the rules as the server enforces them, and writes nothing")
    func liveCheck() async throws {
        try await Self.withPages { server, browser in
            let answer = try await browser.send(
                .POST, "/signup/check", body: "email=ab&password=minsu01pw&confirmation=x&nickname=k",
                contentType: "application/x-www-form-urlencoded")
            #expect(answer.status == 200)
            #expect(answer.html.contains(#""valid":false"#))
            #expect(answer.html.contains("The email must contain one '@'."))
            #expect(answer.html.contains("The nickname must be at least 2 characters."))
            #expect(answer.html.contains("does not match"))
            let fine = try await browser.send(
                .POST, "/signup/check",
                body:
                    "email=minsu01%40example.com&password=\(Self.password)&confirmation=\(Self.password)&nickname=Minsu",
                contentType: "application/x-www-form-urlencoded")
            #expect(fine.html == #"{"fields":{"confirmation":[],"email":[],"nickname":[],"password":[]},"valid":true}"#)
            #expect(try await server.repository.userCount() == 0)
        }
    }

    @Test("a client over its limit is told how long to wait")
    func limits() async throws {
        let limits = ClientLimits(signUpsPerMinute: 10, loginsPerMinute: 1, passwordChecksPerMinute: 10)
        try await Self.withPages(limits: limits) { _, browser in
            _ = try await browser.get("/login")
            let first = try await browser.post("/login", [("email", Self.email), ("password", "Wrong-Password-1")])
            #expect(first.status == 401)
            #expect(first.html.element(id: "form-error") == "The email or password is incorrect.")
            let second = try await browser.post("/login", [("email", Self.email), ("password", "Wrong-Password-1")])
            #expect(second.status == 429)
            let wait = try #require(second.headers.first(name: "Retry-After").flatMap(Int.init))
            #expect(wait >= 1 && wait <= 60)
            #expect(second.html.element(id: "form-error")?.contains("try again in") == true)
            #expect(second.html.contains(#"value="minsu01@example.com""#), "the ID is kept")
        }
    }

    @Test("Korean from Accept-Language, the page's switch wins, and it never leaves the site")
    func language() async throws {
        try await Self.withPages(acceptLanguage: "ko-KR,ko;q=0.9,en;q=0.5") { _, browser in
            let korean = try await browser.get("/signup")
            #expect(korean.html.contains(#"<html lang="ko">"#) && korean.html.contains("<h1>회원가입</h1>"))
            let switched = try await browser.get("/language?to=en&back=/signup")
            #expect(switched.status == 303 && switched.location == "/signup")
            #expect(try await browser.get("/signup").html.contains("<h1>Sign up</h1>"))
            let away = try await browser.get("/language?to=ko&back=https://evil.example/")
            #expect(away.location == "/")
        }
    }

    @Test("an oversized or non-form body gets a page that says nothing changed")
    func unreadableForms() async throws {
        try await Self.withPages { server, browser in
            _ = try await browser.get("/signup")
            let token = try #require(browser.formToken)
            let huge = try await browser.send(
                .POST, "/signup", body: "csrf=\(token)&nickname=" + String(repeating: "x", count: 70_000),
                contentType: "application/x-www-form-urlencoded")
            #expect(huge.status == 413 && huge.html.contains("nothing was changed"))
            let json = try await browser.send(
                .POST, "/signup", body: #"{"email":"x"}"#, contentType: "application/json")
            #expect(json.status == 415)
            #expect(try await server.repository.userCount() == 0)
        }
    }
}
