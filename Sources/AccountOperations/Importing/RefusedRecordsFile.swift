import AccountCore
import AccountJSON

/// The lines `--skip-invalid FILE` writes, one JSON object per refused record: where it was in
/// the source, every reason (in English), and the record as it would have been stored. Fixed
/// by hand, the file imports again with `--from refused`, which reads the same fields.
public enum RefusedRecordsFile {
    /// One line per record.
    public static func lines(_ refused: [RefusedRecord]) -> [String] {
        refused.map { record in
            JSONValue.object([
                ("source", .string(record.source)),
                ("reasons", .array(record.reasons.map { .string($0.english) })),
                ("email", .string(record.user.email)), ("nickname", .string(record.user.nickname)),
                ("password_hash", .string(record.user.passwordHash)),
                ("created_at_ms", .int(record.user.createdAt.millisecondsSince1970)),
            ]).serialized()
        }
    }
}
