import AccountCore
import Foundation
import Hummingbird

/// The pages' three cookies: the session, the form token, the chosen language. All are
/// `HttpOnly` (no script reads them) and `Secure` when the settings say the site is on HTTPS.
struct WebCookies: Sendable {
    static let session = "accounts_session"
    static let formToken = "accounts_form"
    static let language = "accounts_lang"

    let secure: Bool

    /// The session: `SameSite=Lax`, so following a link to the site keeps the member signed
    /// in, while a cross-site form post carries no session. A remembered session outlives the
    /// browser (it expires with the store's session); a plain one ends when the browser closes.
    func session(_ signedIn: SignedInSession, remember: Bool) -> Cookie {
        let expires =
            remember ? Date(timeIntervalSince1970: Double(signedIn.expiresAt.millisecondsSince1970) / 1000) : nil
        return Cookie(
            name: Self.session, value: signedIn.token, expires: expires, path: "/", secure: secure, httpOnly: true,
            sameSite: .lax)
    }

    /// The form token: `SameSite=Strict`, only ever compared with the copy in a form.
    func formToken(_ value: String) -> Cookie {
        Cookie(name: Self.formToken, value: value, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The language picked on the page (a year).
    func language(_ language: Language) -> Cookie {
        Cookie(
            name: Self.language, value: language.rawValue, maxAge: 31_536_000, path: "/", secure: secure,
            httpOnly: true, sameSite: .lax)
    }

    /// Removes the session cookie from the browser.
    func clearedSession() -> Cookie {
        Cookie(
            name: Self.session, value: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/",
            secure: secure, httpOnly: true, sameSite: .lax)
    }
}
