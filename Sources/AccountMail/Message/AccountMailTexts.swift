public import AccountCore
public import Foundation

/// The words of the mails the account flows send, in English and Korean, with links to this
/// server's pages (`server.public_url`).
public struct AccountMailTexts: Sendable {
    /// The server's public address, without a trailing slash: `https://accounts.example.com`.
    public let publicURL: String
    /// The sender's address.
    public let from: String

    public init(publicURL: String, from: String) {
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.from = from
    }

    /// The page a mail's link opens.
    public func link(_ mail: PreparedMail) -> String {
        let page = mail.purpose == .passwordReset ? "reset-password" : "verify-email"
        return "\(publicURL)/\(page)?code=\(mail.code)"
    }

    /// The message for `mail`, sent as request `id` at `date`.
    public func message(_ mail: PreparedMail, id: String, date: Date) -> MailMessage {
        let korean = mail.language == .korean
        let minutes = max(1, (mail.expiresAt.millisecondsSince1970 - Int64(date.timeIntervalSince1970 * 1000)) / 60_000)
        let link = link(mail)
        let (subject, lead, action): (String, String, String)
        switch (mail.purpose == .passwordReset, korean) {
        case (true, true):
            subject = "비밀번호 재설정"
            lead = "\(mail.nickname) 님, 비밀번호 재설정을 요청하셨습니다."
            action = "아래 링크를 열어 새 비밀번호를 정하세요. 앱이나 명령줄에서는 코드를 입력하세요."
        case (true, false):
            subject = "Reset your password"
            lead = "\(mail.nickname), someone asked to reset the password of this account."
            action = "Open the link below to choose a new password, or enter the code in the app or the command line."
        case (false, true):
            subject = "이메일 주소 인증"
            lead = "\(mail.nickname) 님, 이 주소가 본인의 것인지 확인합니다."
            action = "아래 링크를 열거나 앱이나 명령줄에서 코드를 입력하세요."
        case (false, false):
            subject = "Prove your email address"
            lead = "\(mail.nickname), please confirm that this address is yours."
            action = "Open the link below, or enter the code in the app or the command line."
        }
        let expiry =
            korean
            ? "링크와 코드는 \(minutes)분 동안, 한 번만 쓸 수 있습니다." : "The link and the code work once, for \(minutes) minutes."
        let ignore =
            korean
            ? "요청하지 않으셨다면 이 메일을 무시하세요. 계정은 그대로입니다."
            : "If you did not ask for this, ignore this mail: nothing changes."
        let codeLabel = korean ? "코드" : "Code"
        let text = [lead, "", action, "", link, "", "\(codeLabel): \(mail.code)", "", expiry, ignore].joined(
            separator: "\n")
        let html = """
            <!doctype html><html lang="\(mail.language.rawValue)"><body>
            <p>\(Self.escaped(lead))</p><p>\(Self.escaped(action))</p>
            <p><a href="\(Self.escaped(link))">\(Self.escaped(link))</a></p>
            <p>\(codeLabel): <code>\(mail.code)</code></p><p>\(Self.escaped(expiry))<br>\(Self.escaped(ignore))</p>
            </body></html>
            """
        return MailMessage(
            from: from, recipient: mail.recipient, subject: subject, text: text, html: html, date: date, id: id)
    }

    /// `text` safe inside HTML text and attribute values.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
