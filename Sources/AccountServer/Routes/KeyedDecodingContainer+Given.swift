import AccountCore

extension KeyedDecodingContainer {
    /// A field the client may leave out, but not send as null: `decodeIfPresent` reads null as
    /// left out, and the document says each such field is a string or a boolean. The null
    /// throws `valueNotFound`, which the routes answer as a field that is null (decoding it as
    /// a `Bool` would say the wrong type).
    func decodeIfGiven<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(
                Value.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "null"))
        }
        return try decode(Value.self, forKey: key)
    }

    /// A device name the client may give (``DeviceName``), refused by name when it breaks the
    /// rule rather than stored trimmed or cut.
    func decodeDeviceName(forKey key: Key) throws -> String? {
        guard let name = try decodeIfGiven(String.self, forKey: key) else { return nil }
        guard DeviceName.accepts(name) else { throw RefusedDeviceName(field: key.stringValue) }
        return name
    }
}

/// A body's device name that ``DeviceName/accepts(_:)`` refuses; `decode` answers it as
/// `invalid_request` naming the field.
struct RefusedDeviceName: Error {
    let field: String
}
