import AccountBackendKit
import AccountCore

/// `signup.…`: what a new account must do before it signs in again.
enum SignUpSection {
    static func read(_ reader: SectionReader) throws(AccountError) -> Bool {
        try reader.value(
            .boolean(
                "require_verified_email", default: RecoveryPolicy().requireVerifiedEmail,
                summary:
                    "mail each new account a link that proves its email, and refuse its logins (email_not_verified) until it is used"
            ))
    }
}
