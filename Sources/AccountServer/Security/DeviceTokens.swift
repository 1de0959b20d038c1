public import AccountCore
public import AccountCrypto

/// The proof that a browser or an app has signed in to an account before: a random device id,
/// the account it signed in to (its id and creation time), and the server's signature over them
/// and the account's email. A device that shows one for the account it tries is a *known
/// device*, which strangers' failures never throttle (`LoginThrottlePolicy`). It grants nothing
/// else: the password is still checked, and it is no session. Without the server's key nobody
/// can make one; one made for another email proves nothing, and neither does one made for an
/// earlier account of the same email (signed up, withdrawn, signed up again by its owner): the
/// service compares the account it names with the one the email now has.
public struct DeviceTokens: Sendable {
    private let key: HMACKey

    /// Tokens signed with `key` (the server's secret).
    public init(key: HMACKey) {
        self.key = key
    }

    /// A token for `profile`'s account: the device id of `current` when that is a valid token
    /// for the same account (the device keeps its id), else a new one.
    public func issue(for profile: AccountProfile, current: String? = nil) -> String {
        let account = LoginOrigin.Account(userID: profile.id, createdAt: profile.createdAt)
        let kept = claim(in: current, for: profile.email).flatMap { $0.account == account ? $0.device : nil }
        let device = kept ?? Hex.encode(SodiumRandomSource().bytes(16))
        let created = String(account.createdAt.millisecondsSince1970)
        let signed = [device, account.userID.rawValue, created]
        return (signed + [key.signature(of: Self.message(signed, email: profile.email))]).joined(separator: ".")
    }

    /// The device `token` claims for `email` (normalized) and the account it was issued for, or
    /// `nil` when it proves nothing: absent, malformed, forged, or made for another email.
    /// Whether the account is still the email's is for the service to tell, once it has looked.
    public func claim(in token: String?, for email: String) -> (device: String, account: LoginOrigin.Account)? {
        guard let token, token.utf8.count <= 200 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, Hex.isLowercaseHex(parts[0], byteCount: 16),
            Hex.isLowercaseHex(parts[1], byteCount: 16),
            parts[2].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), parts[2].utf8.count <= 15,
            let created = Int64(parts[2]),
            key.isSignature(parts[3], of: Self.message(Array(parts[0..<3]), email: email))
        else { return nil }
        return (
            parts[0],
            LoginOrigin.Account(
                userID: UserID(rawValue: parts[1]), createdAt: Timestamp(millisecondsSince1970: created))
        )
    }

    private static func message(_ signed: [String], email: String) -> String {
        (["accounts-device-v2"] + signed + [email]).joined(separator: "\n")
    }
}
