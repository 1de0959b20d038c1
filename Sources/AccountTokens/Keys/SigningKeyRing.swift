public import AccountCore

/// The signing keys of one server (or of every server of one store, which share the key file):
/// the current key, which signs, and the retired keys whose tokens may not all have expired,
/// which still check them.
public struct SigningKeyRing: Sendable, Hashable, Codable {
    /// Oldest first; the last one not retired is the current key.
    public private(set) var keys: [SigningKey]

    init(keys: [SigningKey]) { self.keys = keys }

    /// The key that signs new tokens.
    public var current: SigningKey? { keys.last { $0.retiredAt == nil } }

    /// The keys a token may be checked against at `now`: the current key, and each key retired
    /// less than `tokenLifetimeSeconds` ago (a token it signed may still be unexpired).
    public func published(at now: Timestamp, tokenLifetimeSeconds: Int64) -> [SigningKey] {
        keys.filter { key in
            guard let retiredAt = key.retiredAt else { return true }
            return now < retiredAt.adding(seconds: tokenLifetimeSeconds)
        }
    }

    /// Puts `key` in the current key's place. The keys it replaces stay published until their
    /// last token expires, or, with `droppingOthers` (a key that may have leaked), leave at
    /// once, and every token they signed is refused from now on. Keys no longer published
    /// are removed.
    mutating func rotate(
        to key: SigningKey, at now: Timestamp, tokenLifetimeSeconds: Int64, droppingOthers: Bool
    ) {
        if droppingOthers {
            keys = []
        } else {
            for index in keys.indices where keys[index].retiredAt == nil { keys[index].retiredAt = now }
            keys = published(at: now, tokenLifetimeSeconds: tokenLifetimeSeconds)
        }
        keys.append(key)
    }
}
