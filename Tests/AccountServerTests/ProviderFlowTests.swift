import AccountCore
import AccountCrypto
import AccountProviders
import AccountTestSupport
import Testing

/// A provider sign-in's state between its start and its callback.
@Suite("Provider sign-in flows")
struct ProviderFlowTests {
    static let now = Timestamp(millisecondsSince1970: 1_800_000_000_000)

    @Test("the S256 challenge is RFC 7636's (its appendix B vector)")
    func challengeVector() {
        #expect(
            ProviderFlow.challenge(of: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("a flow comes back from its own cookie; the verifier and nonce differ per flow and need the key")
    func roundTrip() throws {
        let key = HMACKey.random()
        let flow = ProviderFlow(
            provider: "corp", purpose: .link, userID: UserID(rawValue: String(repeating: "a", count: 32)),
            remember: true, at: Self.now, random: SodiumRandomSource())
        let resumed = try ProviderFlow.resume(
            cookie: flow.cookieValue(key: key), provider: "corp", state: flow.state, key: key, at: Self.now)
        #expect(resumed == flow)
        #expect(flow.state.count == 32 && !flow.cookieValue(key: key).contains(flow.codeVerifier(key: key)))
        let other = ProviderFlow(
            provider: "corp", purpose: .signIn, remember: false, at: Self.now, random: SodiumRandomSource())
        #expect(
            other.codeVerifier(key: key) != flow.codeVerifier(key: key) && other.nonce(key: key) != flow.nonce(key: key)
        )
        #expect(flow.codeVerifier(key: HMACKey.random()) != flow.codeVerifier(key: key))
        #expect(flow.codeVerifier(key: key).count == 64, "RFC 7636 §4.1: 43 to 128 characters")
    }

    @Test("another key, provider or state, a changed field, or ten minutes later: provider_flow_invalid")
    func refusals() {
        let key = HMACKey.random()
        let flow = ProviderFlow(
            provider: "corp", purpose: .signIn, remember: false, at: Self.now, random: SodiumRandomSource())
        let cookie = flow.cookieValue(key: key)
        var fields = cookie.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        fields[5] = "1"
        let cases: [(String?, String, String?, HMACKey, Timestamp)] = [
            (nil, "corp", flow.state, key, Self.now),
            (cookie, "corp", flow.state, HMACKey.random(), Self.now),
            (cookie, "github", flow.state, key, Self.now),
            (cookie, "corp", "0" + flow.state.dropFirst(), key, Self.now),
            (cookie, "corp", nil, key, Self.now),
            (fields.joined(separator: "."), "corp", flow.state, key, Self.now),
            (cookie, "corp", flow.state, key, Self.now.adding(seconds: ProviderFlow.lifetimeSeconds)),
            (String(repeating: "a", count: 400), "corp", flow.state, key, Self.now),
        ]
        for (index, (cookie, provider, state, key, now)) in cases.enumerated() {
            do {
                _ = try ProviderFlow.resume(cookie: cookie, provider: provider, state: state, key: key, at: now)
                Issue.record("case \(index) resumed a flow")
            } catch {
                #expect(error.code == "provider_flow_invalid", "case \(index)")
            }
        }
    }
}
