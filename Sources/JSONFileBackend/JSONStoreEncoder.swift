import AccountCore
import AccountJSON
import DurableFiles

/// Writes a store document as pretty-printed JSON with a fixed key order and records sorted by
/// key, so that two saves of the same data are byte-identical and the file diffs well.
///
/// Hand-written rather than `JSONEncoder`: the whole file is rewritten on every change, and the
/// fixed layout is part of the format.
enum JSONStoreEncoder {
    /// `formatVersion` is this build's unless the conformance suite plants another.
    static func encode(
        _ document: JSONStoreDocument, formatVersion: Int = JSONStoreDocument.formatVersion
    ) -> [UInt8] {
        var out = JSONTextWriter()
        out.raw("{\n")
        out.field("format", string: JSONStoreDocument.formatName, indent: 1)
        out.field("format_version", int: Int64(formatVersion), indent: 1)
        out.field("store_id", string: document.storeID, indent: 1)
        out.field("created_at_ms", int: document.createdAt.millisecondsSince1970, indent: 1)
        if formatVersion >= 2 { out.field("last_user_number", int: Int64(document.lastUserNumber), indent: 1) }
        out.raw("  \"users\" : [")
        out.records(document.encodedUsers.keys, document.encodedUser)
        out.raw(document.encodedUsers.isEmpty ? "],\n" : "\n  ],\n")
        out.raw("  \"sessions\" : [")
        out.records(document.encodedSessions.keys, document.encodedSession)
        guard formatVersion >= 4 else {
            out.raw(document.encodedSessions.isEmpty ? "]\n" : "\n  ]\n")
            out.raw("}\n")
            return out.bytes
        }
        out.raw(document.encodedSessions.isEmpty ? "],\n" : "\n  ],\n")
        out.raw("  \"values\" : [")
        out.records(document.values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { key in
            var value = JSONTextWriter(capacity: 96)
            value.raw("    {\n")
            value.field("key", string: key, indent: 3)
            value.field("value", string: document.values[key]!, indent: 3, last: true)
            value.raw("    }")
            return value.bytes
        }
        guard formatVersion >= 5 else {
            out.raw(document.values.isEmpty ? "]\n" : "\n  ]\n")
            out.raw("}\n")
            return out.bytes
        }
        out.raw(document.values.isEmpty ? "],\n" : "\n  ],\n")
        let flows = document.flows
        out.list("rotated_tokens", JSONFlows.sorted(flows.rotated.keys)) { key, record in
            let token = flows.rotated[key]!
            record.field("token_sha256", string: token.tokenHash, indent: 3)
            record.field("user_id", string: token.userID.rawValue, indent: 3)
            record.field("family", string: token.family, indent: 3)
            record.field("rotated_at_ms", int: token.rotatedAt.millisecondsSince1970, indent: 3)
            record.field("expires_at_ms", int: token.expiresAt.millisecondsSince1970, indent: 3, last: true)
        }
        out.list("codes", JSONFlows.sorted(flows.codes.keys)) { key, record in
            let code = flows.codes[key]!
            record.field("code_sha256", string: code.codeHash, indent: 3)
            record.field("user_id", string: code.userID.rawValue, indent: 3)
            record.field("purpose", string: code.purpose.rawValue, indent: 3)
            record.field("created_at_ms", int: code.createdAt.millisecondsSince1970, indent: 3)
            record.field("expires_at_ms", int: code.expiresAt.millisecondsSince1970, indent: 3, last: true)
        }
        out.list("outbox", JSONFlows.sorted(flows.outbox.keys)) { key, record in
            let mail = flows.outbox[key]!
            record.field("id", string: mail.id, indent: 3)
            record.field("kind", string: mail.kind, indent: 3)
            record.field("recipient", string: mail.recipient, indent: 3)
            record.field("language", string: mail.language, indent: 3)
            record.field("payload", string: mail.payload, indent: 3)
            record.field("created_at_ms", int: mail.createdAt.millisecondsSince1970, indent: 3)
            record.field("attempts", int: Int64(mail.attempts), indent: 3)
            record.field("not_before_ms", int: mail.notBefore.millisecondsSince1970, indent: 3)
            record.field("last_error", string: mail.lastError, indent: 3, last: true)
        }
        out.list("identities", JSONFlows.sorted(flows.identities.keys), last: true) { key, record in
            let identity = flows.identities[key]!
            record.field("provider", string: identity.provider, indent: 3)
            record.field("subject", string: identity.subject, indent: 3)
            record.field("user_id", string: identity.userID.rawValue, indent: 3)
            record.field("email", string: identity.email, indent: 3)
            record.field("linked_at_ms", int: identity.linkedAt.millisecondsSince1970, indent: 3, last: true)
        }
        out.raw("}\n")
        return out.bytes
    }

    /// One user as it sits in the file's `users` array (without the separating comma).
    static func encode(_ user: UserRecord) -> [UInt8] {
        var out = JSONTextWriter(capacity: 320)
        out.raw("    {\n")
        out.field("id", string: user.id.rawValue, indent: 3)
        if let number = user.number { out.field("number", int: Int64(number), indent: 3) }
        out.field("email", string: user.email, indent: 3)
        out.field("nickname", string: user.nickname, indent: 3)
        out.field("password_hash", string: user.passwordHash, indent: 3)
        out.field("created_at_ms", int: user.createdAt.millisecondsSince1970, indent: 3)
        out.field("password_changed_at_ms", int: user.passwordChangedAt.millisecondsSince1970, indent: 3)
        out.field("failed_login_count", int: Int64(user.failedLoginCount), indent: 3)
        out.field("last_failed_login_at_ms", int: user.lastFailedLoginAt?.millisecondsSince1970, indent: 3)
        out.field("blocked", bool: user.isBlocked, indent: 3)
        out.field("must_change_password", bool: user.mustChangePassword, indent: 3)
        out.field("email_verified_at_ms", int: user.emailVerifiedAt?.millisecondsSince1970, indent: 3, last: true)
        out.raw("    }")
        return out.bytes
    }

    /// One session as it sits in the file's `sessions` array.
    static func encode(_ session: SessionRecord) -> [UInt8] {
        var out = JSONTextWriter(capacity: 320)
        out.raw("    {\n")
        out.field("token_sha256", string: session.tokenHash, indent: 3)
        out.field("user_id", string: session.userID.rawValue, indent: 3)
        out.field("created_at_ms", int: session.createdAt.millisecondsSince1970, indent: 3)
        out.field("last_seen_at_ms", int: session.lastSeenAt.millisecondsSince1970, indent: 3)
        out.field("expires_at_ms", int: session.expiresAt.millisecondsSince1970, indent: 3)
        out.field("idle_timeout_s", int: session.idleTimeoutSeconds, indent: 3)
        out.field("remember", bool: session.remember, indent: 3)
        out.field("device", string: session.device, indent: 3)
        out.field("family", string: session.family, indent: 3, last: true)
        out.raw("    }")
        return out.bytes
    }
}

/// A byte buffer with the few JSON writing primitives the store needs.
struct JSONTextWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    /// Appends the records of `keys` in order, one per line, comma-separated.
    mutating func records(_ keys: [String], _ encoded: (String) -> [UInt8]) {
        // About 320 bytes a record: one growth at most for the usual sizes.
        bytes.reserveCapacity(bytes.count + keys.count * 330 + 64)
        for (index, key) in keys.enumerated() {
            if index == 0 { raw("\n") } else { raw(",\n") }
            bytes.append(contentsOf: encoded(key))
        }
    }

    /// A top-level list named `name` of one record per key, each written by `fields`.
    mutating func list(
        _ name: StaticString, _ keys: [String], last: Bool = false, _ fields: (String, inout JSONTextWriter) -> Void
    ) {
        raw("  \"")
        raw(name)
        raw("\" : [")
        records(keys) { key in
            var record = JSONTextWriter(capacity: 256)
            record.raw("    {\n")
            fields(key, &record)
            record.raw("    }")
            return record.bytes
        }
        if keys.isEmpty { raw("]") } else { raw("\n  ]") }
        raw(last ? "\n" : ",\n")
    }

    mutating func field(_ key: StaticString, string value: String?, indent: Int, last: Bool = false) {
        guard let value else {
            writeKey(key, indent: indent)
            raw("null")
            end(last)
            return
        }
        field(key, string: value, indent: indent, last: last)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func field(_ key: StaticString, string value: String, indent: Int, last: Bool = false) {
        writeKey(key, indent: indent)
        quoted(value)
        end(last)
    }

    mutating func field(_ key: StaticString, int value: Int64?, indent: Int, last: Bool = false) {
        writeKey(key, indent: indent)
        if let value { bytes.append(contentsOf: String(value).utf8) } else { raw("null") }
        end(last)
    }

    mutating func field(_ key: StaticString, bool value: Bool, indent: Int, last: Bool = false) {
        writeKey(key, indent: indent)
        if value { raw("true") } else { raw("false") }
        end(last)
    }

    private mutating func writeKey(_ key: StaticString, indent: Int) {
        for _ in 0..<indent { raw("  ") }
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw("\" : ")
    }

    private mutating func end(_ last: Bool) {
        if last { raw("\n") } else { raw(",\n") }
    }

    /// A JSON string, escaped the one way every JSON this project writes is escaped.
    mutating func quoted(_ value: String) {
        JSONValue.appendQuoted(value, to: &bytes)
    }
}
