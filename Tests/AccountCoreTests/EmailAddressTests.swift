import AccountTestSupport
import Testing

@testable import AccountCore

@Suite("Email rules")
struct EmailAddressTests {
    func rule(_ input: String) -> EmailRule? {
        do {
            _ = try EmailAddress(input)
            return nil
        } catch {
            if case .invalidEmail(let rule) = error { return rule }
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test("local part length: 5 and 21 fail, 6 and 20 pass")
    func localLength() throws {
        #expect(rule("abcde@example.com") == .localTooShort)
        #expect(try EmailAddress("abcdef@example.com").normalized == "abcdef@example.com")
        #expect(try EmailAddress("a" + String(repeating: "b", count: 19) + "@example.com").localPart.count == 20)
        #expect(rule("a" + String(repeating: "b", count: 20) + "@example.com") == .localTooLong)
    }

    @Test("a leading digit is rejected; digits after the first are fine")
    func leadingDigit() throws {
        #expect(rule("1abcdef@example.com") == .localStartsWithDigit)
        #expect(try EmailAddress("abc1234@example.com").localPart == "abc1234")
    }

    @Test("uppercase in the local part is rejected with its own message, not folded")
    func uppercase() {
        #expect(rule("Abcdefg@example.com") == .localUppercase)
        let message = AccountError.invalidEmail(.localUppercase).message(.english)
        #expect(message.contains("uppercase"))
        #expect(AccountError.invalidEmail(.localUppercase).message(.korean).contains("대문자"))
    }

    @Test(
        "_ . + and other symbols are rejected in the local part",
        arguments: ["abc_defg", "abc.defg", "abc+defg", "abc-defg", "abcdéfg"])
    func symbols(_ local: String) {
        #expect(rule(local + "@example.com") == .localInvalidCharacter)
    }

    @Test("no @ or two @ are rejected")
    func atSigns() {
        #expect(rule("abcdefg.example.com") == .missingAt)
        #expect(rule("abcdefg@exa@mple.com") == .multipleAt)
        #expect(rule("   ") == .empty)
    }

    @Test(
        "bad domains are rejected with the rule they break",
        arguments: [
            ("b", EmailRule.domainSingleLabel), ("-x.com", .domainLabelHyphen), ("x-.com", .domainLabelHyphen),
            ("x..com", .domainEmptyLabel), ("example.c", .domainBadTopLevel), ("example.c0m", .domainBadTopLevel),
            ("exämple.com", .domainNotASCII), ("exa_mple.com", .domainInvalidCharacter), ("", .domainEmptyLabel),
            ("example.com.", .domainEmptyLabel), (String(repeating: "a", count: 64) + ".com", .domainLabelTooLong),
        ])
    func badDomains(_ domain: String, _ expected: EmailRule) {
        #expect(rule("abcdefg@" + domain) == expected)
    }

    @Test("`a@b` is rejected")
    func shortest() {
        #expect(rule("a@b") != nil)
    }

    @Test("the domain is case-folded and white space trimmed, giving one unique key")
    func normalization() throws {
        let spellings = ["leesoon7@Example.COM", "  leesoon7@example.com\t", "\nleesoon7@EXAMPLE.com "]
        for spelling in spellings {
            #expect(try EmailAddress(spelling).normalized == "leesoon7@example.com")
        }
        #expect(try EmailAddress("abcdef@mail-1.example.co").domain == "mail-1.example.co")
    }

    @Test("every broken rule is listed at once, the first being the one the initializer throws")
    func allBrokenRules() {
        #expect(
            EmailAddress.brokenRules(in: "Abc@x") == [
                .localUppercase, .localTooShort, .domainSingleLabel, .domainBadTopLevel,
            ])
        #expect(
            EmailAddress.brokenRules(in: "9A_b@") == [
                .localUppercase, .localInvalidCharacter, .localStartsWithDigit, .localTooShort, .domainEmptyLabel,
            ])
        #expect(
            EmailAddress.brokenRules(in: "leesoon7@-ex_ample..c") == [
                .domainInvalidCharacter, .domainLabelHyphen, .domainEmptyLabel, .domainBadTopLevel,
            ])
        #expect(EmailAddress.brokenRules(in: "leesoon7@example.com").isEmpty)
        for input in ["Abc@x", "9A_b@", "9A_b", "a@b@c", "leesoon7@-ex_ample..c", "", "leesoon7@예시.com"] {
            #expect(rule(input) == EmailAddress.brokenRules(in: input).first, "\(input)")
        }
    }

    @Test("without an '@' only what holds wherever it goes is listed, not the rules of the part before it")
    func missingAtAlone() {
        // The dot and the length belong to the domain once the '@' is added; they must not be
        // reported as faults of the part before it.
        #expect(EmailAddress.brokenRules(in: "leesoon7example.com") == [.missingAt])
        #expect(EmailAddress.brokenRules(in: " lee ") == [.missingAt])
        #expect(EmailAddress.brokenRules(in: "7leesoon.example.com") == [.missingAt, .localStartsWithDigit])
        #expect(EmailAddress.brokenRules(in: "Lee_soon@x@y") == [.multipleAt, .localUppercase, .localInvalidCharacter])
    }

    @Test("every rule has an English and a Korean message")
    func messages() {
        for rule in EmailRule.allCases {
            let error = AccountError.invalidEmail(rule)
            #expect(!error.message(.english).isEmpty && error.message(.english) != error.message(.korean))
        }
    }

    @Test("a stored email is any well-formed lowercase address: accounts made elsewhere keep theirs")
    func storedEmail() throws {
        for address in ["john.doe@gmail.com", "o'brien+tag@example.co.uk", "a@example.com", "abcdef@example.com"] {
            #expect(try StoredEmail(address).normalized == address)
            #expect(StoredEmail.brokenRules(ofStored: address).isEmpty, "\(address)")
        }
        #expect(try StoredEmail(" john.doe@Gmail.COM ").normalized == "john.doe@gmail.com")
        #expect(rule("john.doe@gmail.com") == .localInvalidCharacter, "sign-up still takes only its own IDs")
        #expect(StoredEmail.brokenRules(in: "John@example.com").isEmpty, "any case finds a stored address")
        #expect(try StoredEmail("John.Doe@Gmail.com").normalized == "john.doe@gmail.com")
        for bad in [
            ".john@example.com", "john.@example.com", "jo..hn@example.com", "@example.com", "jo hn@example.com",
        ] {
            #expect(StoredEmail.brokenRules(in: bad) == [.localMalformed], "\(bad)")
        }
        #expect(StoredEmail.brokenRules(in: String(repeating: "a", count: 65) + "@example.com") == [.localMalformed])
        #expect(StoredEmail.brokenRules(in: "A@b") == [.domainSingleLabel, .domainBadTopLevel])
        #expect(StoredEmail.brokenRules(ofStored: "John@example.com") == [.notNormalized])
        #expect(StoredEmail.brokenRules(ofStored: "john@Example.com") == [.notNormalized])
        #expect(StoredEmail.brokenRules(ofStored: " john@example.com") == [.notNormalized])
    }

    @Test("a Unicode domain is its IDNA A-label form, and an A-label top-level domain is accepted")
    func internationalizedDomains() throws {
        #expect(try StoredEmail("user@실례.한국").normalized == "user@xn--9n2bp8q.xn--3e0b707e")
        #expect(try StoredEmail("user@xn--9n2bp8q.xn--3e0b707e").normalized == "user@xn--9n2bp8q.xn--3e0b707e")
        #expect(try StoredEmail("max@BÜCHER.de").normalized == "max@xn--bcher-kva.de", "lowercased before encoding")
        #expect(try StoredEmail("max@bu\u{0308}cher.de").normalized == "max@xn--bcher-kva.de", "NFC before encoding")
        #expect(try StoredEmail("max@bücher\u{3002}de").normalized == "max@xn--bcher-kva.de", "an ideographic stop")
        #expect(StoredEmail.brokenRules(ofStored: "user@xn--9n2bp8q.xn--3e0b707e").isEmpty)
        #expect(StoredEmail.brokenRules(ofStored: "user@실례.한국") == [.notNormalized])
        #expect(StoredEmail.brokenRules(in: "user@example.xn--") == [.domainLabelHyphen, .domainBadTopLevel])
    }

    /// Samples of RFC 3492 §7.1 (Arabic, simplified Chinese, Korean, mixed case), and Korean and
    /// German labels as Python's `idna` codec encodes them.
    static let punycodeVectors: [(String, String)] = [
        (
            "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}",
            "egbpdaj6bu4bxfgehfvwxn"
        ),
        ("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
        ("세계의모든사람들이한국어를이해한다면얼마나좋을까", "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"),
        ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
        ("bücher", "bcher-kva"), ("실례", "9n2bp8q"), ("한국", "3e0b707e"), ("도메인", "hq1bm8jm9l"),
    ]

    @Test("Punycode encodes RFC 3492's sample strings as the RFC does", arguments: punycodeVectors)
    func punycode(_ unicode: String, _ encoded: String) {
        #expect(Punycode.encode(unicode.unicodeScalars.map { Int($0.value) }) == encoded)
    }
}
