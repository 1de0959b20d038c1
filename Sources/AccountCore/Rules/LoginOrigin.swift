/// Where a login (or a check of the current password) comes from, as the throttle counts it.
public struct LoginOrigin: Sendable, Hashable {
    /// The client: an address, an IPv6 network, or a name for a front end with one user.
    public var client: String
    /// The device's proven id for the account being tried (a verified device cookie or token),
    /// or `nil` for a device that has not signed in to it before.
    public var device: String?
    /// The account the device's token was issued for: the device is known only to that very
    /// account. The service compares it with the account the email has when it looks, and takes
    /// a device whose account is gone or another (an earlier account of the same email, signed
    /// up by someone else and withdrawn) for an unknown one. `nil` for a device the front end
    /// vouches for itself (``local``).
    public var account: Account?

    /// An account as a device token names it: its id, and when it was created.
    public struct Account: Sendable, Hashable {
        /// The account's id.
        public var userID: UserID
        /// When it was created.
        public var createdAt: Timestamp

        /// Names an account.
        public init(userID: UserID, createdAt: Timestamp) {
            self.userID = userID
            self.createdAt = createdAt
        }
    }

    /// An origin; `device` only when the front end verified it, with the `account` its proof
    /// was issued for.
    public init(client: String, device: String? = nil, account: Account? = nil) {
        self.client = client
        self.device = device
        self.account = account
    }

    /// This origin as an unknown device of the same client.
    public var withoutDevice: LoginOrigin { LoginOrigin(client: client) }

    /// A front end on the store's own host, one process per call (the CLI, the terminal app),
    /// which has no memory between calls: it waits by the account's failure count in the
    /// store (``ThrottlePolicy``), which every wrong password raises. Whoever runs it can open
    /// the store itself, so this wait is a courtesy, not a defence; remote clients are never
    /// held up by that count.
    public static let local = LoginOrigin(client: "local", device: "local")
}
