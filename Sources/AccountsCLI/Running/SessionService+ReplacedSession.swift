import AccountCore

extension SessionService {
    /// Revokes, in the store, the session a new sign-in replaces in the session file: the file
    /// keeps one token, so the old one could never be used or logged out again. A token the
    /// store no longer has (expired, revoked, another store's) needs nothing.
    func revokeReplacedSession(_ token: String?) async throws {
        guard let token else { return }
        do {
            try await logout(token: token)
        } catch AccountError.notSignedIn {
        }
    }
}
