/// What a queued mail says once its sender composes it: to whom, about which account, with
/// which code. It holds the code in clear, so it only ever lives in the sender's memory.
public struct PreparedMail: Sendable {
    /// Why the mail goes out.
    public let purpose: OneTimeCode.Purpose
    /// The account's email.
    public let recipient: String
    /// The account's nickname, for the greeting.
    public let nickname: String
    /// The code the mail carries.
    public let code: String
    /// The language the request was made in.
    public let language: Language
    /// When the code stops working.
    public let expiresAt: Timestamp

    public init(
        purpose: OneTimeCode.Purpose, recipient: String, nickname: String, code: String, language: Language,
        expiresAt: Timestamp
    ) {
        self.purpose = purpose
        self.recipient = recipient
        self.nickname = nickname
        self.code = code
        self.language = language
        self.expiresAt = expiresAt
    }
}
