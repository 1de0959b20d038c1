import AccountCore
import Foundation
import Hummingbird

/// The pages' five cookies: the session, the form token's nonce, the device token, the chosen
/// language, and the code of a password reset in progress. All are `HttpOnly` (no script reads them). On HTTPS they are `Secure` and their
/// names carry the `__Host-` prefix, so the browser takes them only from this host over HTTPS,
/// path `/`: a page on a sibling subdomain, or a network attacker on plain HTTP, cannot plant
/// one. On plain HTTP (development on loopback) a browser would drop such a cookie, so the
/// names are bare.
struct WebCookies: Sendable {
    let secure: Bool
    /// The names, prefixed on HTTPS.
    let sessionName: String
    let formName: String
    let deviceName: String
    let languageName: String
    let resetName: String

    /// Every name, as `RequestCookies` reads them.
    var all: Set<String> { [sessionName, formName, deviceName, languageName, resetName] }

    /// A device token lasts a year after its last login; a new login renews it.
    static let deviceMaxAgeSeconds = 31_536_000

    init(secure: Bool) {
        self.secure = secure
        let prefix = secure ? "__Host-" : ""
        sessionName = prefix + "accounts_session"
        formName = prefix + "accounts_form"
        deviceName = prefix + "accounts_device"
        languageName = prefix + "accounts_lang"
        resetName = prefix + "accounts_reset"
    }

    /// The code of a reset mail's link, kept while its form is filled in (`SameSite=Strict`:
    /// only this site's own form posts it), so the code never goes into the page, the address
    /// bar or a `Referer`.
    func reset(_ code: String, maxAge: Int) -> Cookie {
        Cookie(
            name: resetName, value: code, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// Removes the reset code from the browser.
    func clearedReset() -> Cookie {
        Cookie(
            name: resetName, value: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/", secure: secure,
            httpOnly: true, sameSite: .strict)
    }

    /// The session: `SameSite=Lax`, so following a link to the site keeps the member signed
    /// in, while a cross-site form post carries no session. A remembered session outlives the
    /// browser (it expires with the store's session); a plain one ends when the browser closes.
    func session(_ signedIn: SignedInSession, remember: Bool) -> Cookie {
        let expires =
            remember ? Date(timeIntervalSince1970: Double(signedIn.expiresAt.millisecondsSince1970) / 1000) : nil
        return Cookie(
            name: sessionName, value: signedIn.token, expires: expires, path: "/", secure: secure, httpOnly: true,
            sameSite: .lax)
    }

    /// The form token's nonce: `SameSite=Strict`; the forms carry its signature, never itself.
    func formToken(_ nonce: String) -> Cookie {
        Cookie(name: formName, value: nonce, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The device token of the account last signed in here (`SameSite=Strict`: only the
    /// site's own login form needs it).
    func device(_ token: String) -> Cookie {
        Cookie(
            name: deviceName, value: token, maxAge: Self.deviceMaxAgeSeconds, path: "/", secure: secure,
            httpOnly: true, sameSite: .strict)
    }

    /// The language picked on the page (a year).
    func language(_ language: Language) -> Cookie {
        Cookie(
            name: languageName, value: language.rawValue, maxAge: 31_536_000, path: "/", secure: secure,
            httpOnly: true, sameSite: .lax)
    }

    /// Removes the session cookie from the browser.
    func clearedSession() -> Cookie {
        Cookie(
            name: sessionName, value: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/",
            secure: secure, httpOnly: true, sameSite: .lax)
    }
}
