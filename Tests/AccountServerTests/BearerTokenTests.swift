import Testing

@testable import AccountServer

/// The `Authorization` header as every authenticated route reads it.
@Suite("Bearer token header")
struct BearerTokenTests {
    @Test(
        "the token of a Bearer header, the scheme in any case, blanks around the token",
        arguments: [
            ("Bearer abc123", "abc123"),
            ("bearer abc123", "abc123"),
            ("BEARER abc123", "abc123"),
            ("Bearer    abc123 \t", "abc123"),
            ("Bearer \tabc 123", "abc 123"),
            ("Bearer 토큰", "토큰"),
        ])
    func accepted(header: String, token: String) {
        #expect(AccountAPI.bearerToken(fromAuthorization: header) == token)
    }

    @Test(
        "anything else is no token",
        arguments: [
            "", "Bearer", "Bearer ", "Bearer  \t ", "Bearerabc", "Bearer\tabc", "Basic abc", " Bearer abc",
            "Bearér abc", "Bea",
        ])
    func refused(header: String) {
        #expect(AccountAPI.bearerToken(fromAuthorization: header) == nil)
    }
}
