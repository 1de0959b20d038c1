import AccountCore
import AccountTestSupport
import Testing

@Suite("Nickname rules")
struct NicknameTests {
    func rule(_ input: String) -> NicknameRule? {
        do {
            _ = try Nickname(input)
            return nil
        } catch {
            if case .invalidNickname(let rule) = error { return rule }
            return nil
        }
    }

    @Test("every broken rule is listed at once")
    func allBrokenRules() {
        #expect(Nickname.brokenRules(in: "\u{7}") == [.controlCharacter, .tooShort])
        #expect(Nickname.brokenRules(in: "이순신").isEmpty)
        #expect(rule("\u{7}") == .controlCharacter)
    }

    @Test("1 and 21 graphemes fail; 2 and 20 pass")
    func lengths() throws {
        #expect(rule("a") == .tooShort)
        #expect(try Nickname("ab").value == "ab")
        #expect(try Nickname(String(repeating: "가", count: 20)).value.count == 20)
        #expect(rule(String(repeating: "가", count: 21)) == .tooLong)
    }

    @Test("Korean and emoji nicknames count by grapheme, joiners included")
    func graphemes() throws {
        #expect(try Nickname("이순신").value == "이순신")
        let family = "👨‍👩‍👧‍👦"
        #expect(rule(family) == .tooShort, "one family emoji is one grapheme")
        #expect(try Nickname(family + "🏳️‍🌈").value.count == 2)
        #expect(try Nickname(String(repeating: family, count: 20)).value.count == 20)
        #expect(rule(String(repeating: family, count: 21)) == .tooLong)
    }

    @Test("white space is trimmed and the result NFC-normalized")
    func normalization() throws {
        let decomposed = "  e\u{301}lise \n"
        let nickname = try Nickname(decomposed)
        #expect(Array(nickname.value.unicodeScalars) == Array("\u{E9}lise".unicodeScalars))
        #expect(rule("  a  ") == .tooShort)
    }

    @Test(
        "control characters, format characters and line breaks are rejected",
        arguments: [
            "ab\ncd", "ab\u{0}cd", "ab\u{7}", "ab\tcd", "\u{200F}abc", "ab\u{202E}cd", "ab\u{2028}cd", "a\u{200D}b",
        ])
    func controls(_ input: String) {
        #expect(rule(input) == .controlCharacter)
    }
}
