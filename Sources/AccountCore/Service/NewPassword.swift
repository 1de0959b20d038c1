/// A new password typed twice: what a login whose password is temporary
/// (``UserRecord/mustChangePassword``) must bring to replace it.
public struct NewPassword: Sendable, Hashable {
    /// The new password, as typed.
    public var password: String
    /// The same, typed again.
    public var confirmation: String

    /// The new password and its confirmation.
    public init(_ password: String, confirmation: String) {
        self.password = password
        self.confirmation = confirmation
    }
}
