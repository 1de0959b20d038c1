/// Recognises which kind of store a file is from its first bytes, so that every backend can
/// refuse another backend's file with `storeKindMismatch` instead of calling it corrupt.
public enum StoreKindSniffer {
    /// The kinds a file can be recognised as.
    public enum Kind: String, Sendable {
        case sqlite = "a SQLite database"
        case lmdb = "an LMDB environment"
        case accountStoreJSON = "an AccountStore JSON store"
        case otherJSON = "a JSON document of another format"
        case empty = "an empty file"
        case unknown = "unrecognised data"
    }

    /// SQLite's 16-byte file header.
    public static let sqliteMagic = Array("SQLite format 3\0".utf8)
    /// LMDB's meta-page magic, little-endian at byte 16 of the file.
    public static let lmdbMagic: [UInt8] = [0xDE, 0xC0, 0xEF, 0xBE]

    /// The kind of a file that starts with `header` (pass at least its first 64 bytes).
    public static func kind(of header: some Collection<UInt8>) -> Kind {
        let bytes = Array(header.prefix(64))
        if bytes.isEmpty { return .empty }
        if bytes.starts(with: sqliteMagic) { return .sqlite }
        if bytes.count >= 20, Array(bytes[16..<20]) == lmdbMagic { return .lmdb }
        if let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") {
            let text = String(decoding: bytes, as: UTF8.self)
            return text.contains("\"accountstore-json\"") ? .accountStoreJSON : .otherJSON
        }
        return .unknown
    }
}
