/// One reply of an SMTP server (RFC 5321 §4.2): a three-digit code and its lines of text
/// (several when every line but the last has a hyphen after the code).
public struct SMTPReply: Sendable, Hashable {
    /// The reply code: 2xx done, 3xx go on, 4xx try again later, 5xx refused.
    public let code: Int
    /// The text of each line, without the code.
    public let lines: [String]

    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// The reply as one line for a log or an error, cut to a length a log line holds.
    public var summary: String {
        let text = "\(code) " + lines.joined(separator: " / ")
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }

    /// The extensions an EHLO reply lists (its lines after the first), upper-cased keywords
    /// with their parameters: `["STARTTLS": [], "AUTH": ["PLAIN", "LOGIN"]]`.
    var extensions: [String: [String]] {
        var found: [String: [String]] = [:]
        for line in lines.dropFirst() {
            let words = line.split(separator: " ").map { $0.uppercased() }
            guard let keyword = words.first else { continue }
            found[keyword] = Array(words.dropFirst())
        }
        return found
    }
}

/// Reads replies from the bytes a server sends, a line at a time.
struct SMTPReplyParser {
    /// RFC 5321 §4.5.3.1.5 allows 512 octets a reply line; servers that send more are cut off
    /// here rather than buffered without end.
    static let maximumLineLength = 2_048

    private var pending: [(code: Int, text: String)] = []

    /// Takes one line (without its CRLF); returns the reply it completes, if any.
    mutating func take(line: [UInt8]) throws(MailDeliveryError) -> SMTPReply? {
        guard line.count >= 3, line.count <= Self.maximumLineLength,
            line[0..<3].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let code = Int(String(decoding: line[0..<3], as: UTF8.self))
        else { throw .protocolViolation("the relay sent a line that is no reply") }
        let separator = line.count > 3 ? line[3] : 0x20
        guard separator == 0x20 || separator == 0x2D else {
            throw .protocolViolation("the relay sent a line that is no reply")
        }
        if let first = pending.first, first.code != code {
            throw .protocolViolation("the relay changed its reply code within one reply")
        }
        let text = line.count > 4 ? String(decoding: line[4...], as: UTF8.self) : ""
        pending.append((code, text))
        guard separator == 0x20 else { return nil }
        defer { pending.removeAll() }
        return SMTPReply(code: code, lines: pending.map(\.text))
    }

    /// Whether part of a reply has been read.
    var isInsideReply: Bool { !pending.isEmpty }
}
