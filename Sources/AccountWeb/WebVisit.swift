import AccountCore
import AccountServer
import Hummingbird

/// What a page needs to know about the browser asking: its language (picked on the page, else
/// `Accept-Language`), its session token, its device token, and its form token's nonce (a
/// new one when it has none).
struct WebVisit: Sendable {
    let language: Language
    let sessionToken: String?
    let deviceToken: String?
    /// The code of the reset mail whose link this browser opened.
    let resetCode: String?
    let formNonce: String
    /// The browser has no (well-formed) form nonce yet: the page sets one.
    let issuesFormToken: Bool
    /// What this browser's forms carry: the signature over its nonce and session.
    let formField: String
    private let forms: FormToken

    var text: PageText { PageText(language: language) }

    init(_ request: Request, cookies names: WebCookies, forms: FormToken) {
        // Byte for byte; a repeated one is refused before any page (RepeatedCookieMiddleware),
        // and reads here as absent.
        let cookies = RequestCookies(request, names: names.all)
        language =
            cookies[names.languageName].flatMap { Language(rawValue: $0) }
            ?? AcceptLanguage.language(from: request.headers[.acceptLanguage])
        sessionToken = cookies[names.sessionName].flatMap { $0.isEmpty ? nil : $0 }
        deviceToken = cookies[names.deviceName]
        resetCode = cookies[names.resetName].flatMap { $0.isEmpty ? nil : $0 }
        if let kept = cookies[names.formName], FormToken.isWellFormed(kept) {
            formNonce = kept
            issuesFormToken = false
        } else {
            formNonce = FormToken.makeNonce()
            issuesFormToken = true
        }
        self.forms = forms
        formField = forms.field(nonce: formNonce, session: sessionToken)
    }

    /// Whether a posted form carries this browser's form token.
    func accepts(_ form: FormBody) -> Bool {
        !issuesFormToken && forms.accepts(form.fields["csrf"], nonce: formNonce, session: sessionToken)
    }

    /// The values every page's head needs.
    func pageValues(title: String, path: String, notice: String? = nil, formError: String? = nil) -> [String: Any] {
        let text = text
        var values: [String: Any] = [
            "lang": language.rawValue, "title": title, "path": path, "csrf": formField,
            "otherLanguage": text.otherLanguage.rawValue, "otherLanguageName": text.otherLanguageName,
            "languageNavigation": text.languageNavigation,
        ]
        if let notice { values["notice"] = notice }
        if let formError { values["formError"] = formError }
        return values
    }
}
