import AccountCore
import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// The rows of one table of another system, with named columns, from whichever form the
/// operator has: the system's SQLite database file (the table read), a CSV file with a header
/// (`psql \copy … csv header`, a spreadsheet), a JSON array of objects, or JSON Lines (one
/// object per line). Django's `dumpdata` records keep their columns under `fields`, beside
/// `model` and `pk`. Rows are read one at a time.
///
/// The table's shape is checked before any row is: the columns the system's export always has
/// (``requiring``) must be there, else the whole file is refused naming what was expected and
/// what was found, as for a file of another system (`--from strapi` on Supabase's users).
final class SourceTable {
    private enum Rows {
        case sqlite(SQLiteRows)
        case csv(CSVRecords)
        case json(JSONValues)
    }

    private let rows: Rows
    private let bytes: SourceBytes?
    /// The JSON record read to check the shape, handed back first.
    private var pending: [String: String?]?
    private let problem: (String, String) -> AccountError
    /// The Django model every `dumpdata` record must be, when the file names models.
    private let model: String?
    /// The file's size in bytes, when known, and how much of it was read (for progress).
    var size: Int64? { bytes?.size }
    var position: Int64 { bytes?.position ?? 0 }

    /// Opens `path` as `system`'s `table`. Each entry of `requiring` lists the names one
    /// column may have (`created_at` or `createdAt`); `model` is the `dumpdata` model name
    /// (`auth.user`) a JSON record may carry.
    init(
        _ path: String, system: String, table: String, requiring: [[String]], model: String? = nil
    ) throws(AccountError) {
        let problem = { (english: String, korean: String) in SourceProblem.invalid(path, system, english, korean) }
        self.problem = problem
        self.model = model
        if try SQLiteRows.isDatabase(path) {
            let database = try SQLiteRows(path, table: table, problem: problem)
            try Self.require(requiring, in: database.columns, problem: problem)
            rows = .sqlite(database)
            bytes = nil
            return
        }
        let bytes = try SourceBytes(path: path) { SourceProblem.invalid(path, system, $0, $0) }
        self.bytes = bytes
        try bytes.skipWhiteSpace()
        if let first = try bytes.peek(), first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            let values = JSONValues(bytes, layout: .records, problem: problem)
            rows = .json(values)
            // The first record shows the columns (an empty file has none to check: the import
            // refuses a file without users).
            if let row = try Self.row(values.next(), model: model, problem: problem, index: 1) {
                try Self.require(requiring, in: row.keys.sorted(), problem: problem)
                pending = row
            }
        } else {
            let csv = try CSVRecords(bytes, problem: problem)
            try Self.require(requiring, in: csv.columns, problem: problem)
            rows = .csv(csv)
        }
    }

    /// The next row: column name to value (nil for SQL NULL or JSON null); nil at the end.
    func next() throws(AccountError) -> [String: String?]? {
        if let row = pending {
            pending = nil
            return row
        }
        switch rows {
        case .sqlite(let database): return try database.next()
        case .csv(let csv):
            guard let values = try csv.next() else { return nil }
            var row: [String: String?] = [:]
            for (column, value) in zip(csv.columns, values) { row[column] = .some(value) }
            return row
        case .json(let values):
            return try Self.row(values.next(), model: model, problem: problem, index: values.count)
        }
    }

    /// A JSON record as a row; `invalidExport` for a record that is not an object or is of
    /// another Django model (groups and permissions are not users).
    private static func row(
        _ record: SourceJSON?, model: String?, problem: (String, String) -> AccountError, index: Int
    ) throws(AccountError) -> [String: String?]? {
        guard let record else { return nil }
        guard case .object(var members) = record else {
            throw problem("record \(index) is not a JSON object", "\(index)번째 기록이 JSON 객체가 아닙니다")
        }
        if let model, let found = members["model"]?.text, found != model {
            throw problem(
                "record \(index) is a \(found), not a \(model): export \(model) alone",
                "\(index)번째 기록은 \(model)이(가) 아니라 \(found)입니다. \(model)만 내보내십시오")
        }
        // Django's `fields` becomes the row's columns (its own, not a column holding them).
        if case .object(let fields)? = members["fields"] {
            members["fields"] = nil
            members.merge(fields) { outer, _ in outer }
        }
        var row: [String: String?] = [:]
        for (key, value) in members {
            switch value {
            case .null: row[key] = .some(nil)
            case .object, .array: row[key] = value.serialized
            case .bool(let flag): row[key] = flag ? "true" : "false"
            default: row[key] = value.text
            }
        }
        return row
    }

    /// Refuses the file when a required column is missing, naming the columns expected and
    /// those found.
    private static func require(
        _ required: [[String]], in columns: [String], problem: (String, String) -> AccountError
    ) throws(AccountError) {
        let present = Set(columns)
        let missing = required.filter { names in !names.contains(where: present.contains) }
        guard !missing.isEmpty else { return }
        let expected = missing.map { $0.joined(separator: " or ") }.joined(separator: ", ")
        let found = columns.prefix(12).joined(separator: ", ") + (columns.count > 12 ? ", …" : "")
        throw problem(
            "it has no column \(expected) (its columns: \(found.isEmpty ? "none" : found))",
            "\(expected) 열이 없습니다 (있는 열: \(found.isEmpty ? "없음" : found))")
    }
}

/// The rows of one table of an SQLite database, opened read-only (the source is never
/// written), read one at a time.
final class SQLiteRows {
    let columns: [String]
    private var database: OpaquePointer?
    private var statement: OpaquePointer?
    private let table: String
    private let problem: (String, String) -> AccountError

    /// Whether the file at `path` starts as an SQLite database does.
    static func isDatabase(_ path: String) throws(AccountError) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 16)
        return fread(&header, 1, 16, file) == 16 && header == Array("SQLite format 3\0".utf8)
    }

    init(_ path: String, table: String, problem: @escaping (String, String) -> AccountError) throws(AccountError) {
        self.table = table
        self.problem = problem
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            sqlite3_close_v2(database)
            throw problem("the SQLite database cannot be opened", "SQLite 데이터베이스를 열 수 없습니다")
        }
        guard sqlite3_prepare_v2(database, "SELECT * FROM \"\(table)\"", -1, &statement, nil) == SQLITE_OK else {
            sqlite3_close_v2(database)
            throw problem("the database has no table \(table)", "데이터베이스에 \(table) 테이블이 없습니다")
        }
        let prepared = statement
        columns = (0..<sqlite3_column_count(prepared)).map { String(cString: sqlite3_column_name(prepared, $0)) }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close_v2(database)
    }

    func next() throws(AccountError) -> [String: String?]? {
        let step = sqlite3_step(statement)
        if step == SQLITE_DONE { return nil }
        guard step == SQLITE_ROW else { throw problem("reading \(table) failed", "\(table)을(를) 읽지 못했습니다") }
        var row: [String: String?] = [:]
        for (index, column) in columns.enumerated() {
            row[column] = sqlite3_column_text(statement, Int32(index)).map { String(cString: $0) }
        }
        return row
    }
}

extension Dictionary where Key == String, Value == String? {
    /// The first of `columns` the row has with a value.
    func value(_ columns: String...) -> String? {
        for column in columns {
            if let value = self[column], let value { return value }
        }
        return nil
    }

    /// The first of `columns` the row has with a value that is not empty: a time or a state
    /// column, where CSV writes SQL's NULL as nothing (`psql \copy`).
    func set(_ columns: String...) -> String? {
        for column in columns {
            if let value = self[column], let value, !value.isEmpty { return value }
        }
        return nil
    }
}
