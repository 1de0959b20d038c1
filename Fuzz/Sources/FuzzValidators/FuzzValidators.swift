import AccountCore
import AccountCrypto

/// Feeds arbitrary text to the email, nickname and password rules. They must throw only
/// `AccountError` and agree with themselves: a value they accept is accepted again unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidators(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Listing every broken rule must agree with the first one thrown, and with acceptance.
    let emailRules = EmailAddress.brokenRules(in: text)
    do {
        let email = try EmailAddress(text)
        guard emailRules.isEmpty else { fatalError("email accepted but rules broken: \(emailRules)") }
        guard (try? EmailAddress(email.normalized)) == email else { fatalError("email not idempotent: \(email)") }
    } catch {
        guard case .invalidEmail(let rule) = error, rule == emailRules.first else {
            fatalError("email error \(error) is not the first of \(emailRules)")
        }
    }
    let nicknameRules = Nickname.brokenRules(in: text)
    if let nickname = try? Nickname(text) {
        guard nicknameRules.isEmpty else { fatalError("nickname accepted but rules broken") }
        guard (try? Nickname(nickname.value))?.value == nickname.value else { fatalError("nickname not idempotent") }
    } else if nicknameRules.isEmpty {
        fatalError("nickname refused with no rule broken")
    }
    let policy = PasswordPolicy()
    let estimator = ZxcvbnStrengthEstimator()
    let problems = policy.problems(password: text, email: "leesoon7@example.com", nickname: "이순신", estimator: estimator)
    do {
        let normalized = try policy.validate(
            password: text, confirmation: text, email: "leesoon7@example.com", nickname: "이순신", estimator: estimator)
        guard problems.isEmpty else { fatalError("password accepted with problems \(problems)") }
        guard PasswordPolicy.normalize(normalized) == normalized else { fatalError("NFKC not idempotent") }
    } catch {
        guard error == problems.first else { fatalError("password error \(error) is not the first of \(problems)") }
    }
    return 0
}
