/// Which store a saved session token belongs to: the backend, where the store is, and the id
/// the store drew when it was made. The id decides; the backend and location are kept to tell
/// the user where a saved session is (`logout` on another store names them).
package struct SessionStore: Codable, Hashable {
    /// The backend's name, as `--backend` takes it.
    var backend: String
    /// The store's location as the settings resolved it (an absolute path, or PostgreSQL's
    /// schema), as `--store` takes it.
    var location: String
    /// The store's random id (`StoreInfo.storeID`); a copy of a store file shares it, and the
    /// session is then valid in both, as the tokens are.
    var storeID: String

    package init(backend: String, location: String, storeID: String) {
        self.backend = backend
        self.location = location
        self.storeID = storeID
    }

    enum CodingKeys: String, CodingKey {
        case backend, location
        case storeID = "store_id"
    }
}
