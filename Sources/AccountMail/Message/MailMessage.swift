public import Foundation

/// A mail as the relay receives it (RFC 5322 with MIME, RFC 2045–2047): UTF-8 text and HTML
/// alternatives, each base64-encoded so no line is longer than 76 characters and no byte is
/// beyond ASCII, and a subject in RFC 2047 encoded words when it is not plain ASCII.
public struct MailMessage: Sendable, Hashable {
    /// The `From:` address (also the envelope sender).
    public var from: String
    /// The one recipient.
    public var recipient: String
    public var subject: String
    public var text: String
    public var html: String
    public var date: Date
    /// The `Message-ID`'s left part: unique per mail, stable across retries of one request.
    public var id: String

    public init(from: String, recipient: String, subject: String, text: String, html: String, date: Date, id: String) {
        self.from = from
        self.recipient = recipient
        self.subject = subject
        self.text = text
        self.html = html
        self.date = date
        self.id = id
    }

    /// The message's bytes as text, every line ended by CRLF, before dot-stuffing.
    public func rendered() -> String {
        let boundary = "accounts-" + id
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        let headers = [
            "From: " + from,
            "To: " + recipient,
            "Subject: " + Self.encodedWords(subject),
            "Date: " + Self.date(date),
            "Message-ID: <\(id)@\(domain)>",
            "MIME-Version: 1.0",
            // Folded (RFC 5322 §2.2.3): every line stays within 78 characters.
            "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"",
        ]
        var lines = headers + [""]
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            lines += [
                "--" + boundary, "Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", "",
            ]
            lines += Self.base64Lines(Array(body.utf8))
        }
        lines.append("--" + boundary + "--")
        return lines.map { $0 + "\r\n" }.joined()
    }

    /// RFC 5321 §4.5.2: a line that begins with a period gets one more, so that no line of the
    /// message is the lone period that ends it.
    public static func dotStuffed(_ message: String) -> String {
        message.split(separator: "\r\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") ? "." + line : String(line)
        }.joined(separator: "\r\n")
    }

    /// `text` as a header value: itself when it is printable ASCII, else UTF-8 encoded words
    /// (RFC 2047 §4.1, "B"), each at most 75 characters and never splitting a character,
    /// folded onto lines of their own.
    public static func encodedWords(_ text: String) -> String {
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 > 0x7E }) else {
            var words: [[UInt8]] = []
            var chunk: [UInt8] = []
            for scalar in text.unicodeScalars {
                let bytes = Array(String(scalar).utf8)
                // 45 bytes are 60 base64 characters: with `=?UTF-8?B?` and `?=`, 72.
                if chunk.count + bytes.count > 45 {
                    words.append(chunk)
                    chunk = []
                }
                chunk += bytes
            }
            if !chunk.isEmpty { words.append(chunk) }
            return words.map { "=?UTF-8?B?" + Data($0).base64EncodedString() + "?=" }.joined(separator: "\r\n ")
        }
        return text
    }

    /// Whether `address` can stand in `<…>` of an SMTP command and in a header: no control
    /// character, space, angle bracket or line end.
    public static func isSafeAddress(_ address: String) -> Bool {
        !address.isEmpty && address.utf8.count <= 320
            && !address.unicodeScalars.contains {
                $0.value < 0x21 || $0.value == 0x7F || $0 == "<" || $0 == ">"
                    || $0.properties.generalCategory == .control
            }
    }

    private static func base64Lines(_ bytes: [UInt8]) -> [String] {
        let encoded = Data(bytes).base64EncodedString()
        var lines: [String] = []
        var start = encoded.startIndex
        while start < encoded.endIndex {
            let end = encoded.index(start, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[start..<end]))
            start = end
        }
        return lines
    }

    /// RFC 5322 §3.3, in UTC: `Fri, 04 Dec 2026 09:20:57 +0000`.
    static func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(days[(c.weekday ?? 1) - 1]), \(two(c.day)) \(months[(c.month ?? 1) - 1]) \(c.year ?? 1970) "
            + "\(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }
}
