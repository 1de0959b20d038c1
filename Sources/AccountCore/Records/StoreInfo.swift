/// What a store says about itself: every store records its format, version and a unique id.
public struct StoreInfo: Sendable, Hashable, Codable {
    /// The backend's format name, e.g. `accountstore-json`.
    public var formatName: String
    /// The on-disk format version.
    public var formatVersion: Int
    /// A random id drawn when the store was created.
    public var storeID: String

    /// Creates the description.
    public init(formatName: String, formatVersion: Int, storeID: String) {
        self.formatName = formatName
        self.formatVersion = formatVersion
        self.storeID = storeID
    }
}

extension StoreInfo {
    /// A fresh store id: 128 bits from the system CSPRNG as 32 hex characters.
    public static func randomStoreID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
