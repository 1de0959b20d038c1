import AccountCore
import AccountServer
import Hummingbird

/// What a page needs to know about the browser asking: its language (picked on the page, else
/// `Accept-Language`), its session token and its form token (a new one when it has none).
struct WebVisit: Sendable {
    let language: Language
    let sessionToken: String?
    let formToken: String
    /// The browser has no (valid) form token yet: the page sets one.
    let issuesFormToken: Bool

    var text: PageText { PageText(language: language) }

    init(_ request: Request) {
        let cookies = request.cookies
        language =
            cookies[WebCookies.language].flatMap { Language(rawValue: $0.value) }
            ?? AcceptLanguage.language(from: request.headers[.acceptLanguage])
        sessionToken = cookies[WebCookies.session].map(\.value).flatMap { $0.isEmpty ? nil : $0 }
        if let kept = cookies[WebCookies.formToken]?.value, FormToken.isWellFormed(kept) {
            formToken = kept
            issuesFormToken = false
        } else {
            formToken = FormToken.make()
            issuesFormToken = true
        }
    }

    /// Whether a posted form carries this browser's form token.
    func accepts(_ form: FormBody) -> Bool {
        !issuesFormToken && FormToken.matches(form.fields["csrf"], formToken)
    }

    /// The values every page's head needs.
    func pageValues(title: String, path: String, notice: String? = nil, formError: String? = nil) -> [String: Any] {
        let text = text
        var values: [String: Any] = [
            "lang": language.rawValue, "title": title, "path": path, "csrf": formToken,
            "otherLanguage": text.otherLanguage.rawValue, "otherLanguageName": text.otherLanguageName,
            "languageNavigation": text.languageNavigation,
        ]
        if let notice { values["notice"] = notice }
        if let formError { values["formError"] = formError }
        return values
    }
}
