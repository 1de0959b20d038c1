/// One saved session: a token and the store it belongs to. A token from a session file of the
/// format before stores were named has no store until a store recognises it.
struct SavedSession: Codable, Hashable {
    /// The store this token was issued by; `nil` for a token saved by an earlier version.
    var store: SessionStore?
    /// The session token, which only its holder has (the store keeps a SHA-256 of it).
    var token: String
}
