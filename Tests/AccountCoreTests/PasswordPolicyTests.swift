import AccountCore
import AccountCrypto
import AccountTestSupport
import Testing

@Suite("Password rules")
struct PasswordPolicyTests {
    let policy = PasswordPolicy()
    let estimator = ZxcvbnStrengthEstimator()

    func check(
        _ password: String, confirmation: String? = nil, email: String = "leesoon7@example.com",
        nickname: String = "admiral"
    )
        -> AccountError?
    {
        do {
            _ = try policy.validate(
                password: password, confirmation: confirmation ?? password, email: email, nickname: nickname,
                estimator: estimator)
            return nil
        } catch {
            return error
        }
    }

    @Test("7 scalars fail, 8 pass; 128 pass, 129 fail")
    func lengths() {
        #expect(check("Xq7#vB2") == .invalidPassword(.tooShort, minimum: 8, maximum: 128))
        #expect(check("Xq7#vB2!") == nil)
        let long = String(repeating: "Zq9!", count: 32)
        #expect(long.unicodeScalars.count == 128)
        #expect(check(long) == nil)
        #expect(check(long + "x") == .invalidPassword(.tooLong, minimum: 8, maximum: 128))
    }

    @Test("length counts Unicode scalars after NFKC, not bytes")
    func scalars() {
        // 8 Hangul syllables are 24 bytes but 8 scalars.
        #expect(check("곰돌이푸와피글렛") == nil)
        // U+FB01 (ﬁ) becomes "fi" under NFKC: 7 typed scalars, 8 after normalization.
        #expect("\u{FB01}Zq9!vB".unicodeScalars.count == 7)
        #expect(PasswordPolicy.normalize("\u{FB01}Zq9!vB").unicodeScalars.count == 8)
    }

    @Test("the minimum is configurable but never below 8")
    func configurableMinimum() {
        #expect(PasswordPolicy(minimumLength: 4).minimumLength == 8)
        #expect(PasswordPolicy(minimumLength: 12).minimumLength == 12)
    }

    @Test(
        "common weak passwords are rejected",
        arguments: ["password1", "qwerty123", "Passw0rd!", "12345678", "iloveyou"])
    func weak(_ password: String) {
        #expect(check(password) == .weakPassword)
    }

    @Test("a password containing the email's local part or the nickname is rejected")
    func containsIdentity() {
        #expect(check("XYleesoon7!#Q") == .invalidPassword(.containsEmail, minimum: 8, maximum: 128))
        #expect(check("LEESOON7-kayak-42") == .invalidPassword(.containsEmail, minimum: 8, maximum: 128))
        #expect(check("brave-Admiral-99") == .invalidPassword(.containsNickname, minimum: 8, maximum: 128))
        #expect(check("leesoon7leesoon7") != nil)
    }

    @Test("every broken rule is listed at once; the new password must differ from the current one")
    func allProblems() {
        let problems = policy.problems(
            password: "admiral", email: "leesoon7@example.com", nickname: "admiral", estimator: estimator)
        #expect(problems == [.invalidPassword(.tooShort), .invalidPassword(.containsNickname), .weakPassword])
        #expect(check("admiral") == problems.first, "validate throws the first problem")
        let same = policy.problems(
            password: "Quokka-Lantern-77", email: "leesoon7@example.com", nickname: "admiral",
            current: "Quokka-Lantern-77", estimator: estimator)
        #expect(same == [.invalidPassword(.sameAsCurrent)])
        #expect(
            policy.problems(password: "a\u{0}bcdefgh", email: "", nickname: "", estimator: estimator)
                == [.invalidPassword(.containsNUL)])
    }

    @Test("a confirmation that does not match is rejected")
    func mismatch() {
        #expect(check("Tangerine-Kayak-42", confirmation: "Tangerine-Kayak-43") == .passwordMismatch)
        #expect(check("Tangerine-Kayak-42", confirmation: "Tangerine-Kayak-42") == nil)
    }

    @Test("NFKC-equivalent passwords normalize alike and verify alike")
    func nfkc() throws {
        let fullWidth = "Ｔａｎｇｅｒｉｎｅ-Kayak-42"
        let ascii = "Tangerine-Kayak-42"
        #expect(PasswordPolicy.normalize(fullWidth) == PasswordPolicy.normalize(ascii))
        #expect(check(fullWidth, confirmation: ascii) == nil, "the confirmation compares normalized forms")
        let hasher = Argon2idPasswordHasher.fastForTests
        let hash = try hasher.hash(PasswordPolicy.normalize(fullWidth))
        #expect(hasher.verify(PasswordPolicy.normalize(ascii), against: hash))
        #expect(!hasher.verify(PasswordPolicy.normalize("Tangerine-Kayak-43"), against: hash))
    }

    @Test("zxcvbn's estimates match the documented ones")
    func estimates() {
        #expect(estimator.guessesLog2("password1", userWords: []) < 10)
        #expect(estimator.guessesLog2("correcthorsebatterystaple", userWords: []) > 40)
        #expect(
            estimator.guessesLog2("leesoon7leesoon7", userWords: ["leesoon7"])
                < estimator.guessesLog2("leesoon7leesoon7", userWords: []))
    }
}
