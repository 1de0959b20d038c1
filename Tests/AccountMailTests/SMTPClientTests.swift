import AccountMail
import Foundation
import Testing

/// The submission client against a scripted relay on loopback: what it sends, and what it
/// refuses to do.
@Suite("SMTP client")
struct SMTPClientTests {
    static let message = MailMessage(
        from: "accounts@example.com", recipient: "leesoon7@example.com", subject: "비밀번호 재설정",
        text: "line one\n.starts with a period", html: "<p>hi</p>", date: Date(timeIntervalSince1970: 1_796_378_457),
        id: "0123456789abcdef0123456789abcdef")

    func settings(_ port: Int, _ security: MailRelay.Security = .none, username: String? = nil) -> MailRelay {
        MailRelay(
            host: "127.0.0.1", port: port, security: security, from: "accounts@example.com", username: username,
            password: username.map { _ in RedactedSecret("s3cret-pass") })
    }

    @Test("a relay on loopback without TLS gets EHLO, the envelope, and the message ended by a lone period")
    func plainConversation() async throws {
        let relay = try await ScriptedRelay(script: ScriptedRelay.accepting())
        defer { Task { await relay.stop() } }
        try await SMTPClient(relay: settings(relay.port)).send(Self.message)
        let recorded = relay.recorded
        #expect(
            recorded.commands == [
                "EHLO localhost", "MAIL FROM:<accounts@example.com>", "RCPT TO:<leesoon7@example.com>", "DATA", "QUIT",
            ])
        let lines = try #require(recorded.messages.first)
        #expect(lines.contains("Subject: =?UTF-8?B?" + Data("비밀번호 재설정".utf8).base64EncodedString() + "?="))
        #expect(lines.allSatisfy { $0.utf8.count <= 78 && $0.utf8.allSatisfy { $0 < 0x80 } })
        // The text part, base64-encoded, decodes back to the text.
        let start = try #require(lines.firstIndex(of: "Content-Type: text/plain; charset=utf-8")) + 3
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix("--accounts-") })
        let text = String(decoding: Data(base64Encoded: lines[start..<end].joined()) ?? Data(), as: UTF8.self)
        #expect(text == "line one\n.starts with a period")
    }

    @Test("a line that begins with a period is doubled, so none ends the message early")
    func dotStuffing() {
        #expect(MailMessage.dotStuffed(".\r\nplain\r\n..two\r\n") == "..\r\nplain\r\n...two\r\n")
    }

    @Test("a subject beyond ASCII becomes encoded words of at most 75 characters that never split a character")
    func encodedWords() {
        let subject = String(repeating: "비밀번호 재설정 ", count: 8)
        let encoded = MailMessage.encodedWords(subject)
        let words = encoded.components(separatedBy: "\r\n ")
        #expect(words.count > 1)
        #expect(words.allSatisfy { $0.count <= 75 && $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") })
        let decoded = words.map { word in
            String(decoding: Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data(), as: UTF8.self)
        }
        #expect(decoded.allSatisfy { !$0.contains("\u{FFFD}") })
        #expect(decoded.joined() == subject)
        #expect(MailMessage.encodedWords("Reset your password") == "Reset your password")
        #expect(MailMessage.encodedWords("a\r\nBcc: x@evil.test").hasPrefix("=?UTF-8?B?"))
    }

    @Test("with STARTTLS required, a relay that does not offer it is never sent the envelope or the message")
    func noStartTLSNoMail() async throws {
        let relay = try await ScriptedRelay(script: ScriptedRelay.accepting(extensions: ["8BITMIME"]))
        defer { Task { await relay.stop() } }
        let client = try SMTPClient(relay: settings(relay.port, .starttls))
        await #expect(throws: MailDeliveryError.self) { try await client.send(Self.message) }
        #expect(relay.recorded.commands == ["EHLO localhost"])
        #expect(relay.recorded.messages.isEmpty)
    }

    @Test("bytes sent after STARTTLS's reply, before the handshake, end the connection: nothing more is sent")
    func injectionBeforeHandshake() async throws {
        let accepting = ScriptedRelay.accepting(extensions: ["STARTTLS"])
        let relay = try await ScriptedRelay { line in
            line == "STARTTLS" ? "220 go ahead\r\n250 injected before TLS\r\n" : accepting(line)
        }
        defer { Task { await relay.stop() } }
        let client = try SMTPClient(relay: settings(relay.port, .starttls))
        do throws(MailDeliveryError) {
            try await client.send(Self.message)
            Issue.record("the mail was sent")
        } catch {
            #expect(error.summary.contains("before the TLS handshake"), "\(error.summary)")
        }
        #expect(relay.recorded.commands == ["EHLO localhost", "STARTTLS"])
    }

    @Test("a login is refused without TLS, and plain text is refused off loopback")
    func noLoginInClear() throws {
        #expect(throws: MailDeliveryError.self) { _ = try SMTPClient(relay: settings(25, .none, username: "me")) }
        var far = settings(25)
        far.host = "mail.example.com"
        #expect(throws: MailDeliveryError.self) { _ = try SMTPClient(relay: far) }
        #expect("\(settings(25, .tls, username: "me"))".contains("s3cret-pass") == false)
    }

    @Test("a 4xx is worth another try; a 5xx to the recipient is not")
    func refusals() async throws {
        let accepting = ScriptedRelay.accepting()
        let later = try await ScriptedRelay { $0.hasPrefix("MAIL FROM") ? "451 4.3.0 try later\r\n" : accepting($0) }
        let never = try await ScriptedRelay { $0.hasPrefix("RCPT TO") ? "550 5.1.1 no such user\r\n" : accepting($0) }
        defer {
            Task {
                await later.stop()
                await never.stop()
            }
        }
        let laterClient = try SMTPClient(relay: settings(later.port))
        let neverClient = try SMTPClient(relay: settings(never.port))
        do throws(MailDeliveryError) {
            try await laterClient.send(Self.message)
            Issue.record("a 451 was taken for acceptance")
        } catch {
            #expect(error.isWorthRetrying && error.summary.contains("451"))
        }
        do throws(MailDeliveryError) {
            try await neverClient.send(Self.message)
            Issue.record("a 550 was taken for acceptance")
        } catch {
            #expect(!error.isWorthRetrying && error.summary.contains("550"))
        }
        #expect(later.recorded.messages.isEmpty && never.recorded.messages.isEmpty)
    }

    @Test("an address that could end its command line is refused before anything is sent")
    func unsafeAddress() async throws {
        let relay = try await ScriptedRelay(script: ScriptedRelay.accepting())
        defer { Task { await relay.stop() } }
        var message = Self.message
        message.recipient = "a@example.com>\r\nRCPT TO:<b@example.com"
        await #expect(throws: MailDeliveryError.self) {
            try await SMTPClient(relay: settings(relay.port)).send(message)
        }
        #expect(relay.recorded.commands.isEmpty)
    }
}
