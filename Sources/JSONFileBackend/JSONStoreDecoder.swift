import AccountBackendKit
import AccountCore
import FileSupport
import StoreSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
        let file: StoreFileContents
        do {
            file = try JSONDecoder().decode(StoreFileContents.self, from: Data(bytes))
        } catch let error as HeaderProblem {
            throw error.accountError
        } catch let error as DecodingError {
            throw .storeCorrupted(detail: "\(path): \(describe(error))")
        } catch {
            throw .storeCorrupted(detail: "\(path): \(error)")
        }
        var document = JSONStoreDocument(
            storeID: file.storeID, createdAt: Timestamp(millisecondsSince1970: file.createdAt))
        for (index, user) in file.users.enumerated() {
            guard user.failedLoginCount >= 0 else {
                throw .storeCorrupted(detail: "\(path): users[\(index)] has a negative failure count")
            }
            guard document.user(id: user.id) == nil else {
                throw .storeCorrupted(detail: "\(path): users[\(index)] repeats id \(user.id)")
            }
            guard document.put(user, encoding: false) else {
                throw .storeCorrupted(detail: "\(path): users[\(index)] repeats an email held by another user")
            }
        }
        for (index, session) in file.sessions.enumerated() {
            guard document.removeSession(tokenHash: session.tokenHash) == nil else {
                throw .storeCorrupted(detail: "\(path): sessions[\(index)] repeats a token digest")
            }
            document.put(session, encoding: false)
        }
        return document
    }

    private static func describe(_ error: DecodingError) -> String {
        func location(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON (truncated or damaged)"
        case .dataCorrupted(let context):
            return "\(location(context.codingPath)) is invalid"
        case .keyNotFound(let key, let context):
            return "\(location(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(location(context.codingPath)) has the wrong type"
        @unknown default:
            return "unreadable"
        }
    }
}

extension JSONStoreDecoder {
    /// Whether the first byte after any white space opens an object.
    static func startsLikeJSONObject(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }
}

/// A header that says the file is not ours, or too new: found before the body is read.
private enum HeaderProblem: Error {
    case notAStore(String)
    case tooNew(Int)

    var accountError: AccountError {
        switch self {
        case .notAStore(let found): .storeKindMismatch(expected: "JSON-file", found: found)
        case .tooNew(let version): .storeVersionUnsupported(found: version, supported: JSONStoreDocument.formatVersion)
        }
    }
}

/// The file's layout, decoded header first so a foreign or newer file stops there.
private struct StoreFileContents: Decodable {
    let storeID: String
    let createdAt: Int64
    let users: [UserRecord]
    let sessions: [SessionRecord]

    enum Keys: String, CodingKey {
        case format
        case formatVersion = "format_version"
        case storeID = "store_id"
        case createdAt = "created_at_ms"
        case users, sessions
    }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Keys.self) else {
            throw HeaderProblem.notAStore(JSONStoreDecoder.otherJSON)
        }
        guard let format = try? container.decodeIfPresent(String.self, forKey: .format) else {
            throw HeaderProblem.notAStore(JSONStoreDecoder.otherJSON)
        }
        guard format == JSONStoreDocument.formatName else {
            throw HeaderProblem.notAStore(JSONStoreDecoder.otherJSON + " (\"\(format)\")")
        }
        let version = try container.decode(Int.self, forKey: .formatVersion)
        if version > JSONStoreDocument.formatVersion { throw HeaderProblem.tooNew(version) }
        guard version >= 1 else {
            throw DecodingError.dataCorruptedError(forKey: .formatVersion, in: container, debugDescription: "below 1")
        }
        storeID = try container.decode(String.self, forKey: .storeID)
        createdAt = try container.decode(Int64.self, forKey: .createdAt)
        users = try container.decode([UserRecordFields].self, forKey: .users).map(\.record)
        sessions = try container.decode([SessionRecordFields].self, forKey: .sessions).map(\.record)
    }
}
