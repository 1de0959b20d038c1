import AccountCore
import PostgresNIO

/// Sessions and their users by token digest: the query behind every authenticated request,
/// for a batch of digests at once (`LookupCoalescer` gathers them), prepared once per pooled
/// connection, so PostgreSQL parses and plans it once instead of on every request (pgbench on
/// a one-digest lookup, same machine: 12,000 executions a second as an unnamed statement,
/// 32,000–38,000 prepared).
///
/// A prepared statement's text is fixed (`static`), so it names the tables without their
/// schema: they resolve through the connection's `search_path`, which the pool sets to the
/// store's schema when it connects (`PostgresConnector.clientConfiguration`). The
/// `current_schema() = $2` condition keeps that honest: on a connection whose search path is
/// anything else (a proxy that dropped the setting), the lookup finds no session — the request
/// is refused as not signed in — instead of reading another schema's tables.
struct SignedInLookup: PostgresPreparedStatement {
    static let name = "accountstore_signed_in_v6"
    static let sql = """
        SELECT s.token_sha256, s.user_id, s.created_at_ms, s.last_seen_at_ms, s.expires_at_ms, s.idle_timeout_s, \
        s.remember, s.device, s.family, u.id, u.email, u.nickname, u.password_hash, u.created_at_ms, u.password_changed_at_ms, \
        u.failed_login_count, u.last_failed_login_at_ms, u.number, u.blocked, u.must_change_password, \
        u.email_verified_at_ms \
        FROM sessions s LEFT JOIN users u ON u.id = s.user_id \
        WHERE s.token_sha256 = ANY($1) AND current_schema() = $2
        """
    typealias Row = PostgresRow

    /// A session, and its user unless the user is gone.
    typealias Found = (session: SessionRecord, user: UserRecord?)

    let tokenHashes: [String]
    /// The store's schema, as the connection's search path must name it.
    let schema: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(tokenHashes)
        bindings.append(schema)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    static func found(_ row: PostgresRow) throws -> Found {
        let cells = row.makeRandomAccess()
        let session = SessionRecord(
            tokenHash: try cells[0].decode(String.self), userID: UserID(rawValue: try cells[1].decode(String.self)),
            createdAt: Timestamp(millisecondsSince1970: try cells[2].decode(Int64.self)),
            lastSeenAt: Timestamp(millisecondsSince1970: try cells[3].decode(Int64.self)),
            expiresAt: Timestamp(millisecondsSince1970: try cells[4].decode(Int64.self)),
            idleTimeoutSeconds: try cells[5].decode(Int64.self), remember: try cells[6].decode(Bool.self),
            device: String(buffer: try cells[7].decode(ByteBuffer.self)), family: try cells[8].decode(String.self))
        guard let id = try cells[9].decode(String?.self) else { return (session, nil) }
        let user = UserRecord(
            id: UserID(rawValue: id), email: try cells[10].decode(String.self),
            nickname: String(buffer: try cells[11].decode(ByteBuffer.self)),
            passwordHash: try cells[12].decode(String.self),
            createdAt: Timestamp(millisecondsSince1970: try cells[13].decode(Int64.self)),
            passwordChangedAt: Timestamp(millisecondsSince1970: try cells[14].decode(Int64.self)),
            failedLoginCount: Int(try cells[15].decode(Int64.self)),
            lastFailedLoginAt: try cells[16].decode(Int64?.self).map { Timestamp(millisecondsSince1970: $0) },
            number: Int(try cells[17].decode(Int64.self)), isBlocked: try cells[18].decode(Bool.self),
            mustChangePassword: try cells[19].decode(Bool.self),
            emailVerifiedAt: try cells[20].decode(Int64?.self).map { Timestamp(millisecondsSince1970: $0) })
        return (session, user)
    }
}
