#if Server
    import AccountCore
    import AccountMail
    import AccountServerSettings
    import AccountSettings
    import Foundation

    /// The outbox's sender for the configured relay (`mail.…`).
    enum MailDelivery {
        /// The client of the configured relay, or `nil` when none is configured (requests then
        /// wait in the store).
        /// - Throws: `configInvalid` for a password file that cannot be read, or a relay the
        ///   client refuses (TLS off loopback, a trust file it cannot read).
        static func client(_ mail: MailSettings) throws(AccountError) -> SMTPClient? {
            guard mail.isEnabled else { return nil }
            var password: RedactedSecret?
            if let file = mail.passwordFile {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw .configInvalid(key: "mail.password_file", reason: "\(file) cannot be read")
                }
                password = RedactedSecret(String(text.split(separator: "\n", omittingEmptySubsequences: false)[0]))
            }
            let relay = MailRelay(
                host: mail.smtpHost, port: mail.smtpPort,
                security: MailRelay.Security(rawValue: mail.security.rawValue) ?? .starttls, from: mail.from,
                username: mail.username.isEmpty ? nil : mail.username, password: password,
                trustRootsFile: mail.caFile, heloName: mail.heloName)
            let client: SMTPClient
            do {
                client = try SMTPClient(relay: relay)
            } catch let error as MailDeliveryError {
                throw .configInvalid(key: "mail.tls", reason: error.summary)
            } catch {
                throw .configInvalid(key: "mail.ca_file", reason: "the TLS library refused it: \(error)")
            }
            return client
        }

        /// The outbox's sender through `client`, with links to `publicURL`.
        static func sender(
            _ client: SMTPClient, _ mail: MailSettings, recovery: RecoveryService, publicURL: String
        ) -> OutboxSender {
            OutboxSender(
                recovery: recovery, transport: client, texts: AccountMailTexts(publicURL: publicURL, from: mail.from),
                firstRetrySeconds: Int64(mail.retrySeconds))
        }
    }
#endif
