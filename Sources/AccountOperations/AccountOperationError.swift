/// What the operator's service refuses beyond `AccountError`: no account has the email given.
public enum AccountOperationError: Error, Sendable, Hashable {
    /// No account has this (normalized) email.
    case accountNotFound(email: String)
}
