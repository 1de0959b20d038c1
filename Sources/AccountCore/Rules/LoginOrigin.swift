/// Where a login (or a check of the current password) comes from, as the throttle counts it.
public struct LoginOrigin: Sendable, Hashable {
    /// The client: an address, an IPv6 network, or a name for a front end with one user.
    public var client: String
    /// The device's proven id for the account being tried (a verified device cookie or token),
    /// or `nil` for a device that has not signed in to it before.
    public var device: String?

    /// An origin; `device` only when the front end verified it for this account.
    public init(client: String, device: String? = nil) {
        self.client = client
        self.device = device
    }

    /// A front end on the store's own host, one process per call (the CLI, the terminal app),
    /// which has no memory between calls: it waits by the account's failure count in the
    /// store (``ThrottlePolicy``), which every wrong password raises. Whoever runs it can open
    /// the store itself, so this wait is a courtesy, not a defence; remote clients are never
    /// held up by that count.
    public static let local = LoginOrigin(client: "local", device: "local")
}
