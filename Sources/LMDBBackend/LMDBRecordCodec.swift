import AccountCore
import DurableFiles

/// The compact, versioned binary form of records in LMDB: a version byte, then fields in a
/// fixed order (strings as a 4-byte length and UTF-8, integers as 8 bytes little-endian).
/// Anything that does not decode exactly is `storeCorrupted`.
enum LMDBRecordCodec {
    /// 2 appends the user's number; 3 the account's state (blocked and temporary-password flags,
    /// when the email was proven). Records of versions 1 (format 1) and 2 (formats 2 and 3) are
    /// read only to upgrade them.
    static let userVersion: UInt8 = 3
    /// 2 appends the device's name, 3 the session's family; records of versions 1 (formats 1
    /// and 2) and 2 (formats 3 and 4) are read only to upgrade them.
    static let sessionVersion: UInt8 = 3

    static func encode(_ user: UserRecord) -> [UInt8] {
        var out = Writer(capacity: 64 + user.email.utf8.count + user.nickname.utf8.count + user.passwordHash.utf8.count)
        out.byte(userVersion)
        out.string(user.email)
        out.string(user.nickname)
        out.string(user.passwordHash)
        out.int(user.createdAt.millisecondsSince1970)
        out.int(user.passwordChangedAt.millisecondsSince1970)
        out.int(Int64(user.failedLoginCount))
        out.optionalInt(user.lastFailedLoginAt?.millisecondsSince1970)
        out.int(Int64(user.number ?? 0))
        out.byte(user.isBlocked ? 1 : 0)
        out.byte(user.mustChangePassword ? 1 : 0)
        out.optionalInt(user.emailVerifiedAt?.millisecondsSince1970)
        return out.bytes
    }

    /// `version` 1 or 2 only while upgrading a store of an older format.
    static func decodeUser(
        id: UserID, _ bytes: [UInt8], path: String, version: UInt8 = userVersion
    ) throws(AccountError) -> UserRecord {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(AccountError) in try decodeUser(id: id, raw, path: path, version: version) }
        }.get()
    }

    /// Decodes a user straight from LMDB's memory (valid only inside the transaction).
    static func decodeUser(
        id: UserID, _ bytes: UnsafeRawBufferPointer, path: String, version: UInt8 = userVersion
    ) throws(AccountError) -> UserRecord {
        var reader = Reader(bytes: bytes, path: path, what: "user", name: id.rawValue)
        try reader.expectVersion(version)
        var user = UserRecord(
            id: id, email: try reader.string(), nickname: try reader.string(), passwordHash: try reader.string(),
            createdAt: Timestamp(millisecondsSince1970: try reader.int()),
            passwordChangedAt: Timestamp(millisecondsSince1970: try reader.int()),
            failedLoginCount: Int(try reader.int()),
            lastFailedLoginAt: try reader.optionalInt().map { Timestamp(millisecondsSince1970: $0) })
        if version >= 2 {
            let number = try reader.int()
            guard number > 0 else { throw reader.corrupt("number \(number)") }
            user.number = Int(number)
        }
        if version >= 3 {
            user.isBlocked = try reader.flag()
            user.mustChangePassword = try reader.flag()
            user.emailVerifiedAt = try reader.optionalInt().map { Timestamp(millisecondsSince1970: $0) }
        }
        try reader.expectEnd()
        return user
    }

    /// The `numbers` key of a user number: 8 bytes big-endian, so that keys sort by number.
    static func numberKey(_ number: Int) -> [UInt8] {
        withUnsafeBytes(of: Int64(number).bigEndian) { Array($0) }
    }

    static func encode(_ session: SessionRecord) -> [UInt8] {
        var out = Writer(capacity: 80)
        out.byte(sessionVersion)
        out.string(session.userID.rawValue)
        out.int(session.createdAt.millisecondsSince1970)
        out.int(session.lastSeenAt.millisecondsSince1970)
        out.int(session.expiresAt.millisecondsSince1970)
        out.int(session.idleTimeoutSeconds)
        out.byte(session.remember ? 1 : 0)
        out.string(session.device)
        out.string(session.family)
        return out.bytes
    }

    /// `version` 1 or 2 only while upgrading a store of an older format.
    static func decodeSession(
        tokenHash: String, _ bytes: [UInt8], path: String, version: UInt8 = sessionVersion
    ) throws(AccountError) -> SessionRecord {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(AccountError) in
                try decodeSession(tokenHash: tokenHash, raw, path: path, version: version)
            }
        }.get()
    }

    /// Decodes a session straight from LMDB's memory (valid only inside the transaction).
    static func decodeSession(
        tokenHash: String, _ bytes: UnsafeRawBufferPointer, path: String, version: UInt8 = sessionVersion
    ) throws(AccountError) -> SessionRecord {
        var reader = Reader(bytes: bytes, path: path, what: "session", name: "")
        try reader.expectVersion(version)
        var session = SessionRecord(
            tokenHash: tokenHash, userID: UserID(rawValue: try reader.string()),
            createdAt: Timestamp(millisecondsSince1970: try reader.int()),
            lastSeenAt: Timestamp(millisecondsSince1970: try reader.int()),
            expiresAt: Timestamp(millisecondsSince1970: try reader.int()), idleTimeoutSeconds: try reader.int(),
            remember: try reader.flag())
        if version >= 2 { session.device = try reader.string() }
        if version >= 3 { session.family = try reader.string() }
        try reader.expectEnd()
        return session
    }

    // MARK: - The flows' records (format 5 on), each at version 1

    static func encode(_ token: RotatedToken) -> [UInt8] {
        var out = Writer(capacity: 120)
        out.byte(1)
        out.string(token.userID.rawValue)
        out.string(token.family)
        out.int(token.rotatedAt.millisecondsSince1970)
        out.int(token.expiresAt.millisecondsSince1970)
        return out.bytes
    }

    static func decodeRotated(tokenHash: String, _ bytes: [UInt8], path: String) throws(AccountError) -> RotatedToken {
        try decode(bytes, path: path, what: "rotated token") { (reader) throws(AccountError) in
            RotatedToken(
                tokenHash: tokenHash, userID: UserID(rawValue: try reader.string()), family: try reader.string(),
                rotatedAt: Timestamp(millisecondsSince1970: try reader.int()),
                expiresAt: Timestamp(millisecondsSince1970: try reader.int()))
        }
    }

    static func encode(_ code: OneTimeCode) -> [UInt8] {
        var out = Writer(capacity: 96)
        out.byte(1)
        out.string(code.userID.rawValue)
        out.string(code.purpose.rawValue)
        out.int(code.createdAt.millisecondsSince1970)
        out.int(code.expiresAt.millisecondsSince1970)
        return out.bytes
    }

    static func decodeCode(hash: String, _ bytes: [UInt8], path: String) throws(AccountError) -> OneTimeCode {
        try decode(bytes, path: path, what: "code") { (reader) throws(AccountError) in
            OneTimeCode(
                codeHash: hash, userID: UserID(rawValue: try reader.string()),
                purpose: OneTimeCode.Purpose(rawValue: try reader.string()),
                createdAt: Timestamp(millisecondsSince1970: try reader.int()),
                expiresAt: Timestamp(millisecondsSince1970: try reader.int()))
        }
    }

    static func encode(_ mail: OutboxMail) -> [UInt8] {
        var out = Writer(capacity: 128 + mail.payload.utf8.count)
        out.byte(1)
        out.string(mail.kind)
        out.string(mail.recipient)
        out.string(mail.language)
        out.string(mail.payload)
        out.int(mail.createdAt.millisecondsSince1970)
        out.int(Int64(mail.attempts))
        out.int(mail.notBefore.millisecondsSince1970)
        out.optionalString(mail.lastError)
        return out.bytes
    }

    static func decodeMail(id: String, _ bytes: [UInt8], path: String) throws(AccountError) -> OutboxMail {
        try decode(bytes, path: path, what: "mail") { (reader) throws(AccountError) in
            OutboxMail(
                id: id, kind: try reader.string(), recipient: try reader.string(), language: try reader.string(),
                payload: try reader.string(), createdAt: Timestamp(millisecondsSince1970: try reader.int()),
                attempts: Int(try reader.int()), notBefore: Timestamp(millisecondsSince1970: try reader.int()),
                lastError: try reader.optionalString())
        }
    }

    static func encode(_ identity: ProviderIdentity) -> [UInt8] {
        var out = Writer(capacity: 96)
        out.byte(1)
        out.string(identity.userID.rawValue)
        out.optionalString(identity.email)
        out.int(identity.linkedAt.millisecondsSince1970)
        return out.bytes
    }

    static func decodeIdentity(
        provider: String, subject: String, _ bytes: [UInt8], path: String
    ) throws(AccountError) -> ProviderIdentity {
        try decode(bytes, path: path, what: "identity") { (reader) throws(AccountError) in
            ProviderIdentity(
                provider: provider, subject: subject, userID: UserID(rawValue: try reader.string()),
                email: try reader.optionalString(), linkedAt: Timestamp(millisecondsSince1970: try reader.int()))
        }
    }

    /// A record of version 1 decoded by `body`, every byte read.
    private static func decode<T>(
        _ bytes: [UInt8], path: String, what: StaticString, _ body: (inout Reader) throws(AccountError) -> T
    ) throws(AccountError) -> T {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(AccountError) -> T in
                var reader = Reader(bytes: raw, path: path, what: what, name: "")
                try reader.expectVersion(1)
                let value = try body(&reader)
                try reader.expectEnd()
                return value
            }
        }.get()
    }

    struct Writer {
        private(set) var bytes: [UInt8] = []
        init(capacity: Int) { bytes.reserveCapacity(capacity) }
        mutating func byte(_ value: UInt8) { bytes.append(value) }
        mutating func int(_ value: Int64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        mutating func optionalInt(_ value: Int64?) {
            if let value {
                byte(1)
                int(value)
            } else {
                byte(0)
            }
        }
        mutating func optionalString(_ value: String?) {
            if let value {
                byte(1)
                string(value)
            } else {
                byte(0)
            }
        }
        mutating func string(_ value: String) {
            let utf8 = value.utf8
            withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: utf8)
        }
    }

    /// Reads fields in place from a record's bytes; the message naming the record is built
    /// only when it does not decode (this runs on every lookup).
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        let path: String
        let what: StaticString
        let name: String
        var offset = 0

        func corrupt(_ reason: String) -> AccountError {
            .storeCorrupted(detail: "\(path): \(what)\(name.isEmpty ? "" : " " + name) does not decode (\(reason))")
        }

        mutating func take(_ count: Int) throws(AccountError) -> UnsafeRawBufferPointer {
            guard count >= 0, bytes.count - offset >= count else { throw corrupt("truncated") }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func byte() throws(AccountError) -> UInt8 {
            try take(1)[0]
        }

        mutating func expectVersion(_ version: UInt8) throws(AccountError) {
            let found = try byte()
            guard found == version else { throw corrupt("record version \(found), expected \(version)") }
        }

        mutating func expectEnd() throws(AccountError) {
            guard offset == bytes.count else { throw corrupt("\(bytes.count - offset) trailing bytes") }
        }

        mutating func int() throws(AccountError) -> Int64 {
            Int64(littleEndian: try take(8).loadUnaligned(as: Int64.self))
        }

        mutating func flag() throws(AccountError) -> Bool {
            switch try byte() {
            case 0: return false
            case 1: return true
            case let other: throw corrupt("flag byte \(other)")
            }
        }

        mutating func optionalInt() throws(AccountError) -> Int64? {
            try flag() ? try int() : nil
        }

        mutating func optionalString() throws(AccountError) -> String? {
            try flag() ? try string() : nil
        }

        mutating func string() throws(AccountError) -> String {
            let length = Int(UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)))
            let slice = try take(length)
            guard let text = String(strictUTF8: slice.assumingMemoryBound(to: UInt8.self)) else {
                throw corrupt("invalid UTF-8")
            }
            return text
        }
    }
}
