import AccountCore
import AccountCrypto

/// Feeds arbitrary text to the email, nickname and password rules. They must throw only
/// `AccountError` and agree with themselves: a value they accept is accepted again unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidators(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let email = try? EmailAddress(text) {
        guard (try? EmailAddress(email.normalized)) == email else { fatalError("email not idempotent: \(email)") }
    }
    if let nickname = try? Nickname(text) {
        guard (try? Nickname(nickname.value))?.value == nickname.value else { fatalError("nickname not idempotent") }
    }
    let policy = PasswordPolicy()
    if let normalized = try? policy.validateAlone(text) {
        guard PasswordPolicy.normalize(normalized) == normalized else { fatalError("NFKC not idempotent") }
        _ = try? policy.validate(
            password: text, confirmation: text, email: "leesoon7@example.com", nickname: "이순신",
            estimator: ZxcvbnStrengthEstimator())
    }
    return 0
}
