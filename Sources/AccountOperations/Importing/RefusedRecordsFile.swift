import AccountCore
import AccountJSON

/// The lines `--skip-invalid FILE` writes, one JSON object per refused record: where it was in
/// the source and its id there, every reason (in English), and the record as it would have
/// been stored, its number (the source's id, which stays the person's) and state included.
/// Fixed by hand, the file imports again with `--from refused`, which reads the same fields.
public enum RefusedRecordsFile {
    /// One line per record.
    public static func lines(_ refused: [RefusedRecord]) -> [String] {
        refused.map { record in
            let user = record.user
            return JSONValue.object([
                ("source", .string(record.source)), ("source_id", record.sourceID.map(JSONValue.string) ?? .null),
                ("reasons", .array(record.reasons.map { .string($0.english) })),
                ("email", .string(user.email)), ("nickname", .string(user.nickname)),
                ("password_hash", .string(user.passwordHash)),
                ("created_at_ms", .int(user.createdAt.millisecondsSince1970)),
                ("number", user.number.map { .int(Int64($0)) } ?? .null), ("blocked", .bool(user.isBlocked)),
                ("must_change_password", .bool(user.mustChangePassword)),
                ("email_verified_at_ms", user.emailVerifiedAt.map { .int($0.millisecondsSince1970) } ?? .null),
            ]).serialized()
        }
    }
}
