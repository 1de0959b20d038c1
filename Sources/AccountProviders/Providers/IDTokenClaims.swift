import Foundation
import JWTKit

/// The claims of an OpenID Connect ID token read here (Core §2), and the few the user-info
/// endpoint may add. The checks that bind a token to a sign-in are ``OpenIDProvider``'s, with
/// its clock; decoding checks none.
struct IDTokenClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim?
    var nonce: String?
    var azp: String?
    var email: String?
    /// `true`/`false`, or their text as some providers write it.
    var emailVerified: BoolClaim?
    var name: String?
    var preferredUsername: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, azp, email, name
        case emailVerified = "email_verified"
        case preferredUsername = "preferred_username"
    }

    /// The algorithms an ID token may be signed with: public-key ones only, so neither `none`
    /// nor an HMAC keyed with something public (RFC 8725 §2.1) is ever believed.
    static let signingAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
    ]

    /// Decoding checks nothing: ``OpenIDProvider`` checks every claim against its sign-in.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A JWT's header, read before its signature is checked, to choose how to check it.
struct JWTHeaderPeek: Decodable {
    var alg: String
    var kid: String?

    init(_ token: String) throws {
        let first = token.prefix { $0 != "." }
        var text = first.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard first.utf8.count < 4096, let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not base64url"))
        }
        self = try JSONDecoder().decode(JWTHeaderPeek.self, from: data)
    }
}
