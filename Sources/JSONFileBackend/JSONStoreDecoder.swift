import AccountBackendKit
import AccountCore
import DurableFiles

/// Reads and checks a JSON-file store: its kind, its version, every field's type, and the
/// uniqueness of emails, ids and sessions. Any doubt is an error; nothing is repaired.
enum JSONStoreDecoder {
    /// A JSON document that is not an AccountStore store, as mismatch messages name it.
    static let otherJSON = StoreRecognizer.otherJSON

    static func decode(
        _ bytes: [UInt8], path: String, recognizer: StoreRecognizer = .none
    ) throws(AccountError) -> JSONStoreDocument {
        if bytes.isEmpty { throw .storeCorrupted(detail: "\(path) is empty (0 bytes)") }
        if !startsLikeJSONObject(bytes) {
            if let found = recognizer.describe(fileHeader: Array(bytes.prefix(64))) {
                throw .storeKindMismatch(expected: "JSON-file", found: found)
            }
            throw .storeCorrupted(detail: "\(path) does not start like a JSON store (damaged or not a store)")
        }
        let file: JSONStoreParser.Contents
        do {
            file = try bytes.withUnsafeBufferPointer { (text) throws(JSONStoreParser.Failure) in
                try JSONStoreParser.parse(text)
            }
        } catch {
            throw error.accountError(path: path)
        }
        if let index = file.users.firstIndex(where: { $0.failedLoginCount < 0 }) {
            throw .storeCorrupted(detail: "\(path): users[\(index)] has a negative failure count")
        }
        do {
            return try JSONStoreDocument(
                formatVersion: file.formatVersion, storeID: file.storeID,
                createdAt: Timestamp(millisecondsSince1970: file.createdAt),
                lastUserNumber: Int(file.lastUserNumber ?? 0), users: file.users, sessions: file.sessions,
                values: file.values, flows: file.flows)
        } catch {
            switch error {
            case .userID(let index, let id):
                throw .storeCorrupted(detail: "\(path): users[\(index)] repeats id \(id)")
            case .email(let index):
                throw .storeCorrupted(detail: "\(path): users[\(index)] repeats an email held by another user")
            case .number(let index, let number):
                throw .storeCorrupted(detail: "\(path): users[\(index)] repeats number \(number)")
            case .tokenHash(let index):
                throw .storeCorrupted(detail: "\(path): sessions[\(index)] repeats a token digest")
            }
        }
    }
}

extension JSONStoreDecoder {
    /// Whether the first byte after any white space opens an object.
    static func startsLikeJSONObject(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }
}
