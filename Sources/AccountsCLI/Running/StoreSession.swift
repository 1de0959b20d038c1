import AccountCore

/// The open store's entry in the session file: the token saved for this store, if any, and the
/// way to replace or forget it without touching any other store's.
struct StoreSession {
    let file: SessionTokenFile
    /// The store the command opened.
    let store: SessionStore
    /// The token saved for this store, or a token of the earlier file format that this store
    /// recognised.
    let token: String?
    /// The earlier-format token this store recognised: saving or forgetting this store's session
    /// replaces it too, so it is never left behind as a second entry.
    let claimed: String?

    /// Saves `token` as this store's session.
    func save(_ token: String) throws(AccountError) {
        try file.save(token, for: store, claiming: claimed)
    }

    /// Forgets this store's session (after the store revoked it, or no longer knows it).
    func forget() throws(AccountError) {
        try file.remove(for: store, claiming: claimed)
    }

    /// The stores other than this one that sessions are saved for, to tell the user where they
    /// are signed in.
    func otherStores() throws(AccountError) -> [SessionStore] {
        try file.sessions().compactMap(\.store).filter { $0.storeID != store.storeID }
    }

    /// `not_signed_in` for a command that needs a session, naming where the saved sessions are
    /// when there are some for other stores.
    func notSignedIn() -> any Error {
        let elsewhere = (try? otherStores()) ?? []
        return elsewhere.isEmpty ? AccountError.notSignedIn : NotSignedInHere(savedFor: elsewhere)
    }
}
