import AccountCore
public import AccountCrypto

/// The proof that a browser or an app has signed in to an account before: a random device id
/// and the server's signature over it and the account's email. A device that shows one for
/// the email it tries is a *known device*, which strangers' failures never throttle
/// (`LoginThrottlePolicy`). It grants nothing else: the password is still checked, and it
/// is no session. Without the server's key nobody can make one, and one made for another
/// email proves nothing here.
public struct DeviceTokens: Sendable {
    private let key: HMACKey

    /// Tokens signed with `key` (the server's secret).
    public init(key: HMACKey) {
        self.key = key
    }

    /// A token for `email` (normalized): the device id of `current` when that is a valid token
    /// for the same email (the device keeps its id), else a new one.
    public func issue(for email: String, current: String? = nil) -> String {
        let device = self.device(in: current, for: email) ?? Hex.encode(SodiumRandomSource().bytes(16))
        return device + "." + key.signature(of: Self.message(device: device, email: email))
    }

    /// The device id `token` proves for `email` (normalized), or `nil` when it proves nothing:
    /// absent, malformed, forged, or made for another email.
    public func device(in token: String?, for email: String) -> String? {
        guard let token, token.utf8.count == 97 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, Hex.isLowercaseHex(String(parts[0]), byteCount: 16) else { return nil }
        let device = String(parts[0])
        return key.isSignature(String(parts[1]), of: Self.message(device: device, email: email)) ? device : nil
    }

    private static func message(device: String, email: String) -> String {
        "accounts-device-v1\n\(device)\n\(email)"
    }
}
