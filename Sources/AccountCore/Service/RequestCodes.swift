/// The code a mail request carries, made from the request's id with a key the store never
/// holds: the store keeps the request and the code's digest, never the code, and the mail
/// sender composes the same code however often it retries a request.
public protocol RequestCodes: Sendable {
    /// The code of request `id` for `purpose`: 64 lowercase hex characters (256 bits), the same
    /// for the same request, unguessable without the key.
    func code(forRequest id: String, purpose: OneTimeCode.Purpose) -> String
}
