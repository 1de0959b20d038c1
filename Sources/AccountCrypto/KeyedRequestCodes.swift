public import AccountCore

/// Codes made with HMAC-SHA-256 under the server's secret: the store holds the requests and the
/// codes' digests, and without the secret neither gives the code.
public struct KeyedRequestCodes: RequestCodes {
    private let key: HMACKey

    public init(key: HMACKey) {
        self.key = key
    }

    public func code(forRequest id: String, purpose: OneTimeCode.Purpose) -> String {
        // Its own prefix: no other signature made with the key (device tokens) is ever a code.
        key.signature(of: "accounts-mail-code-v1\n" + purpose.rawValue + "\n" + id)
    }
}
