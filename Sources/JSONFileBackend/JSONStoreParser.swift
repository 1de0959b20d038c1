import AccountCore
import AccountJSON

/// Reads a JSON store's text straight into records, checking the JSON grammar of the whole file
/// and the type of every field it knows.
///
/// Hand-written rather than `JSONDecoder`: Foundation's Codable path built a tree of the file and
/// then walked it through keyed containers, about half of every read of a large store (one
/// `accounts whoami` reads the whole file). This reader makes one pass over the bytes and keeps
/// `JSONDecoder`'s answers: unknown keys are skipped, the first of two equal keys counts, a
/// number with a fraction or an exponent is an integer when it is a whole one. It is stricter
/// in one way: the skipped values must be valid JSON too (`JSONDecoder` left their insides
/// unchecked); and where `JSONDecoder` called a value it could not represent (a lone surrogate,
/// a number beyond 64 bits) "not valid JSON", this reader names the field (`is invalid`). The
/// order in which problems are reported is `JSONDecoder`'s as well: a grammar fault anywhere
/// before any field problem, then the header (`format`, `format_version`), then the first
/// problem in the order the fields are declared.
struct JSONStoreParser {
    /// The file's content, as read.
    struct Contents {
        var formatVersion: Int
        var storeID: String
        var createdAt: Int64
        /// The highest user number ever given (format 2 on; `nil` in format 1).
        var lastUserNumber: Int64?
        var users: [UserRecord]
        var sessions: [SessionRecord]
        /// The services' values (format 4 on).
        var values: [String: String]
        /// Rotated tokens, codes, the outbox, identities (format 5 on).
        var flows: JSONFlows
    }

    /// Why a file was refused.
    enum Failure: Error, Equatable {
        /// Not JSON at all, or JSON cut short: `offset` is where the reader gave up.
        case grammar(offset: Int)
        /// JSON without our `format` (the string found, when there was one).
        case notAStore(format: String?)
        /// Written by a newer build.
        case tooNew(version: Int)
        /// A field at `path` (`users[3].email`) is missing, of the wrong type or out of range.
        case field(path: String, FieldProblem)
    }

    /// What is wrong with one field.
    enum FieldProblem: Equatable {
        case missing, wrongType, invalid
    }

    /// Reads `bytes` as a whole store file.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> Contents {
        var parser = JSONStoreParser(text: JSONText(bytes))
        return try parser.file()
    }

    private var text: JSONText

    // MARK: - The file

    private static let fileKeys: [[UInt8]] = [
        "format", "format_version", "store_id", "created_at_ms", "last_user_number", "users", "sessions", "values",
        "rotated_tokens", "codes", "outbox", "identities",
    ].map { Array($0.utf8) }

    private mutating func file() throws(Failure) -> Contents {
        var fields = [JSONScalar?](repeating: nil, count: 5)
        // Each list's first problem; checking its records stops there, its grammar does not.
        var users: Result<[ParsedUser], Failure>? = nil
        var sessions: Result<[ParsedSession], Failure>? = nil
        var values: Result<[(String, String)], Failure>? = nil
        var rotated: Result<[RotatedToken], Failure>? = nil
        var codes: Result<[OneTimeCode], Failure>? = nil
        var outbox: Result<[OutboxMail], Failure>? = nil
        var identities: Result<[ProviderIdentity], Failure>? = nil
        try text.object(depth: 1, keys: Self.fileKeys) { (text, slot) throws(Failure) in
            switch slot {
            case let slot? where slot < 5:
                let value = try text.scalar(depth: 2)
                if fields[slot] == nil { fields[slot] = value }
            case 5 where users == nil:
                users = try Self.records(&text, list: "users", keys: Self.userKeys, make: Self.user)
            case 6 where sessions == nil:
                sessions = try Self.records(&text, list: "sessions", keys: Self.sessionKeys, make: Self.session)
            case 7 where values == nil:
                values = try Self.records(&text, list: "values", keys: Self.valueKeys, make: Self.value)
            case 8 where rotated == nil:
                rotated = try Self.records(&text, list: "rotated_tokens", keys: Self.rotatedKeys, make: Self.rotated)
            case 9 where codes == nil:
                codes = try Self.records(&text, list: "codes", keys: Self.codeKeys, make: Self.code)
            case 10 where outbox == nil:
                outbox = try Self.records(&text, list: "outbox", keys: Self.mailKeys, make: Self.mail)
            case 11 where identities == nil:
                identities = try Self.records(&text, list: "identities", keys: Self.identityKeys, make: Self.identity)
            default:
                try text.skipValue(depth: 2)
            }
        }
        try text.end()

        guard case .string(let format?)? = fields[0] else { throw .notAStore(format: nil) }
        guard format == JSONStoreDocument.formatName else { throw .notAStore(format: format) }
        let version = try Self.int(fields[1], at: "format_version")
        if version > Int64(JSONStoreDocument.formatVersion) { throw .tooNew(version: Int(version)) }
        guard version >= 1 else { throw .field(path: "format_version", .invalid) }
        let storeID = try Self.string(fields[2], at: "store_id")
        let createdAt = try Self.int(fields[3], at: "created_at_ms")
        // Format 1 had no numbers: whatever stands there is not read as one.
        let numbered = version >= 2
        let lastUserNumber = numbered ? try Self.int(fields[4], at: "last_user_number") : nil
        if let lastUserNumber, lastUserNumber < 0 { throw .field(path: "last_user_number", .invalid) }
        guard let users else { throw .field(path: "users", .missing) }
        guard let sessions else { throw .field(path: "sessions", .missing) }
        // Format 4 keeps each account's state; before, whatever stands there is not read as it.
        let stated = version >= 4
        var records: [UserRecord] = []
        for (index, parsed) in try users.get().enumerated() {
            guard stated else {
                var record = parsed.record
                (record.isBlocked, record.mustChangePassword, record.emailVerifiedAt) = (false, false, nil)
                records.append(record)
                continue
            }
            guard parsed.statesBlocked else { throw .field(path: "users[\(index)].blocked", .missing) }
            guard parsed.statesPasswordChange else {
                throw .field(path: "users[\(index)].must_change_password", .missing)
            }
            records.append(parsed.record)
        }
        for index in records.indices {
            guard numbered else {
                records[index].number = nil
                continue
            }
            guard let number = records[index].number else { throw .field(path: "users[\(index)].number", .missing) }
            guard number > 0, number <= lastUserNumber ?? 0 else {
                throw .field(path: "users[\(index)].number", .invalid)
            }
        }
        // Format 3 names each session's device, and format 5 its family; before, whatever stands
        // there is not read as one (a session is then a family of its own).
        var sessionRecords: [SessionRecord] = []
        for (index, parsed) in try sessions.get().enumerated() {
            var record = parsed.record
            if version < 3 {
                record.device = ""
            } else if !parsed.namesDevice {
                throw .field(path: "sessions[\(index)].device", .missing)
            }
            if version < 5 {
                record.family = record.tokenHash
            } else if !parsed.namesFamily {
                throw .field(path: "sessions[\(index)].family", .missing)
            }
            sessionRecords.append(record)
        }
        var flows = JSONFlows()
        if version >= 5 {
            func list<Record>(_ result: Result<[Record], Failure>?, _ name: String) throws(Failure) -> [Record] {
                guard let result else { throw .field(path: name, .missing) }
                return try result.get()
            }
            for (index, token) in try list(rotated, "rotated_tokens").enumerated() {
                guard flows.rotated.updateValue(token, forKey: token.tokenHash) == nil else {
                    throw .field(path: "rotated_tokens[\(index)].token_sha256", .invalid)
                }
            }
            for (index, code) in try list(codes, "codes").enumerated() {
                guard flows.codes.updateValue(code, forKey: code.codeHash) == nil else {
                    throw .field(path: "codes[\(index)].code_sha256", .invalid)
                }
            }
            for (index, mail) in try list(outbox, "outbox").enumerated() {
                guard flows.outbox.updateValue(mail, forKey: mail.id) == nil else {
                    throw .field(path: "outbox[\(index)].id", .invalid)
                }
            }
            for (index, identity) in try list(identities, "identities").enumerated() {
                let key = JSONFlows.identityKey(identity.provider, identity.subject)
                guard flows.identities.updateValue(identity, forKey: key) == nil else {
                    throw .field(path: "identities[\(index)].subject", .invalid)
                }
            }
        }
        var kept: [String: String] = [:]
        if stated {
            guard let values else { throw .field(path: "values", .missing) }
            for (index, (key, value)) in try values.get().enumerated() {
                guard kept.updateValue(value, forKey: key) == nil else {
                    throw .field(path: "values[\(index)].key", .invalid)
                }
            }
        }
        return Contents(
            formatVersion: Int(version), storeID: storeID, createdAt: createdAt, lastUserNumber: lastUserNumber,
            users: records, sessions: sessionRecords, values: kept, flows: flows)
    }

    /// One of the file's lists: its records, or the first problem found in them.
    private static func records<Record>(
        _ text: inout JSONText, list: String, keys: [[UInt8]], make: ([JSONScalar?]) throws(Failure) -> Record
    ) throws(Failure) -> Result<[Record], Failure> {
        guard text.peek() == UInt8(ascii: "[") else {
            try text.skipValue(depth: 2)
            return .failure(.field(path: list, .wrongType))
        }
        var records: [Record] = []
        var problem: Failure? = nil
        try text.array(depth: 2) { (text, index) throws(Failure) in
            guard problem == nil else { return try text.skipValue(depth: 3) }
            guard text.peek() == UInt8(ascii: "{") else {
                try text.skipValue(depth: 3)
                problem = .field(path: "\(list)[\(index)]", .wrongType)
                return
            }
            var fields = [JSONScalar?](repeating: nil, count: keys.count)
            try text.object(depth: 3, keys: keys) { (text, slot) throws(Failure) in
                guard let slot else { return try text.skipValue(depth: 4) }
                let value = try text.scalar(depth: 4)
                if fields[slot] == nil { fields[slot] = value }
            }
            do throws(Failure) {
                records.append(try make(fields))
            } catch .field(let name, let fieldProblem) {
                problem = .field(path: "\(list)[\(index)].\(name)", fieldProblem)
            } catch {
                problem = error
            }
        }
        return problem.map { .failure($0) } ?? .success(records)
    }

    // MARK: - Records

    private static let userKeys: [[UInt8]] = [
        "id", "email", "nickname", "password_hash", "created_at_ms", "password_changed_at_ms",
        "failed_login_count", "last_failed_login_at_ms", "number", "blocked", "must_change_password",
        "email_verified_at_ms",
    ].map { Array($0.utf8) }

    /// A user as its list holds it, and whether it stated its flags (format 4 must).
    private struct ParsedUser {
        var record: UserRecord
        var statesBlocked: Bool
        var statesPasswordChange: Bool
    }

    private static func user(_ fields: [JSONScalar?]) throws(Failure) -> ParsedUser {
        var record = try userFields(fields)
        if fields[9] != nil { record.isBlocked = try bool(fields[9], at: "blocked") }
        if fields[10] != nil { record.mustChangePassword = try bool(fields[10], at: "must_change_password") }
        record.emailVerifiedAt = try optionalInt(fields[11], at: "email_verified_at_ms").map {
            Timestamp(millisecondsSince1970: $0)
        }
        return ParsedUser(record: record, statesBlocked: fields[9] != nil, statesPasswordChange: fields[10] != nil)
    }

    private static func userFields(_ fields: [JSONScalar?]) throws(Failure) -> UserRecord {
        UserRecord(
            id: UserID(rawValue: try string(fields[0], at: "id")),
            email: try string(fields[1], at: "email"),
            nickname: try string(fields[2], at: "nickname"),
            passwordHash: try string(fields[3], at: "password_hash"),
            createdAt: Timestamp(millisecondsSince1970: try int(fields[4], at: "created_at_ms")),
            passwordChangedAt: Timestamp(
                millisecondsSince1970: try int(fields[5], at: "password_changed_at_ms")),
            failedLoginCount: Int(try int(fields[6], at: "failed_login_count")),
            lastFailedLoginAt: try optionalInt(fields[7], at: "last_failed_login_at_ms").map {
                Timestamp(millisecondsSince1970: $0)
            },
            number: try optionalInt(fields[8], at: "number").map { Int($0) })
    }

    private static let valueKeys: [[UInt8]] = ["key", "value"].map { Array($0.utf8) }

    private static func value(_ fields: [JSONScalar?]) throws(Failure) -> (String, String) {
        (try string(fields[0], at: "key"), try string(fields[1], at: "value"))
    }

    private static let sessionKeys: [[UInt8]] = [
        "token_sha256", "user_id", "created_at_ms", "last_seen_at_ms", "expires_at_ms", "idle_timeout_s",
        "remember", "device", "family",
    ].map { Array($0.utf8) }

    /// A session as its list holds it, and whether it named its device (format 3 must) and its
    /// family (format 5 must).
    private struct ParsedSession {
        var record: SessionRecord
        var namesDevice: Bool
        var namesFamily: Bool
    }

    private static func session(_ fields: [JSONScalar?]) throws(Failure) -> ParsedSession {
        var record = SessionRecord(
            tokenHash: try string(fields[0], at: "token_sha256"),
            userID: UserID(rawValue: try string(fields[1], at: "user_id")),
            createdAt: Timestamp(millisecondsSince1970: try int(fields[2], at: "created_at_ms")),
            lastSeenAt: Timestamp(millisecondsSince1970: try int(fields[3], at: "last_seen_at_ms")),
            expiresAt: Timestamp(millisecondsSince1970: try int(fields[4], at: "expires_at_ms")),
            idleTimeoutSeconds: try int(fields[5], at: "idle_timeout_s"),
            remember: try bool(fields[6], at: "remember"))
        if fields[7] != nil { record.device = try string(fields[7], at: "device") }
        if fields[8] != nil { record.family = try string(fields[8], at: "family") }
        return ParsedSession(record: record, namesDevice: fields[7] != nil, namesFamily: fields[8] != nil)
    }

    // MARK: - The flows' records

    private static let rotatedKeys: [[UInt8]] = ["token_sha256", "user_id", "family", "rotated_at_ms", "expires_at_ms"]
        .map { Array($0.utf8) }

    private static func rotated(_ fields: [JSONScalar?]) throws(Failure) -> RotatedToken {
        RotatedToken(
            tokenHash: try string(fields[0], at: "token_sha256"),
            userID: UserID(rawValue: try string(fields[1], at: "user_id")), family: try string(fields[2], at: "family"),
            rotatedAt: Timestamp(millisecondsSince1970: try int(fields[3], at: "rotated_at_ms")),
            expiresAt: Timestamp(millisecondsSince1970: try int(fields[4], at: "expires_at_ms")))
    }

    private static let codeKeys: [[UInt8]] = ["code_sha256", "user_id", "purpose", "created_at_ms", "expires_at_ms"]
        .map { Array($0.utf8) }

    private static func code(_ fields: [JSONScalar?]) throws(Failure) -> OneTimeCode {
        OneTimeCode(
            codeHash: try string(fields[0], at: "code_sha256"),
            userID: UserID(rawValue: try string(fields[1], at: "user_id")),
            purpose: OneTimeCode.Purpose(rawValue: try string(fields[2], at: "purpose")),
            createdAt: Timestamp(millisecondsSince1970: try int(fields[3], at: "created_at_ms")),
            expiresAt: Timestamp(millisecondsSince1970: try int(fields[4], at: "expires_at_ms")))
    }

    private static let mailKeys: [[UInt8]] = [
        "id", "kind", "recipient", "language", "payload", "created_at_ms", "attempts", "not_before_ms", "last_error",
    ].map { Array($0.utf8) }

    private static func mail(_ fields: [JSONScalar?]) throws(Failure) -> OutboxMail {
        OutboxMail(
            id: try string(fields[0], at: "id"), kind: try string(fields[1], at: "kind"),
            recipient: try string(fields[2], at: "recipient"), language: try string(fields[3], at: "language"),
            payload: try string(fields[4], at: "payload"),
            createdAt: Timestamp(millisecondsSince1970: try int(fields[5], at: "created_at_ms")),
            attempts: Int(try int(fields[6], at: "attempts")),
            notBefore: Timestamp(millisecondsSince1970: try int(fields[7], at: "not_before_ms")),
            lastError: try optionalString(fields[8], at: "last_error"))
    }

    private static let identityKeys: [[UInt8]] = ["provider", "subject", "user_id", "email", "linked_at_ms"]
        .map { Array($0.utf8) }

    private static func identity(_ fields: [JSONScalar?]) throws(Failure) -> ProviderIdentity {
        ProviderIdentity(
            provider: try string(fields[0], at: "provider"), subject: try string(fields[1], at: "subject"),
            userID: UserID(rawValue: try string(fields[2], at: "user_id")),
            email: try optionalString(fields[3], at: "email"),
            linkedAt: Timestamp(millisecondsSince1970: try int(fields[4], at: "linked_at_ms")))
    }

    /// A string that may be absent or `null`.
    private static func optionalString(_ field: JSONScalar?, at path: String) throws(Failure) -> String? {
        switch field {
        case nil, .null?: return nil
        default: return try string(field, at: path)
        }
    }

    // MARK: - Fields

    private static func string(_ field: JSONScalar?, at path: String) throws(Failure) -> String {
        switch field {
        case nil: throw .field(path: path, .missing)
        case .string(let value?): return value
        case .string(nil): throw .field(path: path, .invalid)
        default: throw .field(path: path, .wrongType)
        }
    }

    private static func int(_ field: JSONScalar?, at path: String) throws(Failure) -> Int64 {
        switch field {
        case nil: throw .field(path: path, .missing)
        case .number(let value?): return value
        case .number(nil): throw .field(path: path, .invalid)
        default: throw .field(path: path, .wrongType)
        }
    }

    /// An integer that may be absent or `null`.
    private static func optionalInt(_ field: JSONScalar?, at path: String) throws(Failure) -> Int64? {
        switch field {
        case nil, .null?: return nil
        default: return try int(field, at: path)
        }
    }

    private static func bool(_ field: JSONScalar?, at path: String) throws(Failure) -> Bool {
        switch field {
        case nil: throw .field(path: path, .missing)
        case .bool(let value): return value
        default: throw .field(path: path, .wrongType)
        }
    }
}

extension JSONStoreParser.Failure {
    /// The failure as the store's error, naming the file.
    func accountError(path: String) -> AccountError {
        switch self {
        case .grammar(let offset):
            .storeCorrupted(detail: "\(path): not valid JSON (truncated or damaged) at byte \(offset)")
        case .notAStore(let format?):
            .storeKindMismatch(expected: "JSON-file", found: JSONStoreDecoder.otherJSON + " (\"\(format)\")")
        case .notAStore(nil):
            .storeKindMismatch(expected: "JSON-file", found: JSONStoreDecoder.otherJSON)
        case .tooNew(let version):
            .storeVersionUnsupported(found: version, supported: JSONStoreDocument.formatVersion)
        case .field(let field, .missing): .storeCorrupted(detail: "\(path): \(field) is missing")
        case .field(let field, .wrongType): .storeCorrupted(detail: "\(path): \(field) has the wrong type")
        case .field(let field, .invalid): .storeCorrupted(detail: "\(path): \(field) is invalid")
        }
    }
}
