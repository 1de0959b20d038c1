import Foundation
import JWTKit

/// An access token's claims as JWT carries them (RFC 9068's profile: `iss`, `sub`, `aud`,
/// `exp`, `iat`, and the session's `sid`, the user's `number` and how they signed in, `amr`).
struct AccessTokenPayload: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var sid: String
    var number: Int
    var amr: [String]

    /// The signature is jwt-kit's to check; the times are the session service's, with its
    /// clock, and the issuer and audience `JWTAccessTokens`'.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
