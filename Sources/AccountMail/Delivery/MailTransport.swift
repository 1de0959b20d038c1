/// What hands a composed mail on: the SMTP client, or a test's recorder.
public protocol MailTransport: Sendable {
    func send(_ message: MailMessage) async throws(MailDeliveryError)
}

extension SMTPClient: MailTransport {}
