import AccountCore
import CSQLite

/// The rows of one table of another system, with named columns, from whichever form the
/// operator has: the system's SQLite database file (the table read), a CSV file with a header
/// (`psql \copy … csv header`, a spreadsheet), or a JSON array of objects (Django's `dumpdata`
/// rows keep their columns under `fields`).
struct SourceRows {
    /// Each row: column name to value (nil for SQL NULL or JSON null).
    let rows: [[String: String?]]

    /// Reads `path` as `system`'s `table`.
    init(_ path: String, system: String, table: String) throws(AccountError) {
        let problem = { (english: String, korean: String) in SourceProblem.invalid(path, system, english, korean) }
        let bytes = try SourceProblem.contents(of: path, system)
        if bytes.starts(with: Array("SQLite format 3\0".utf8)) {
            rows = try Self.sqlite(path, table: table, problem: problem)
        } else if let json = bytes.first(where: { ![9, 10, 13, 32].contains($0) }), json == UInt8(ascii: "[") {
            guard let array = SourceJSON.decode(bytes) else {
                throw problem("it starts like JSON but is not valid JSON", "JSON처럼 시작하지만 올바른 JSON이 아닙니다")
            }
            rows = array.elements.map { element in
                var row: [String: String?] = [:]
                var members: [String: SourceJSON] = [:]
                if case .object(let all) = element { members = all }
                if case .object(let fields)? = members["fields"] {
                    members.merge(fields) { outer, _ in outer }
                }
                for (key, value) in members {
                    switch value {
                    case .null: row[key] = .some(nil)
                    case .object, .array: row[key] = Self.serialized(value)
                    case .bool(let flag): row[key] = flag ? "true" : "false"
                    default: row[key] = value.text
                    }
                }
                return row
            }
        } else {
            let table = try CSVTable(bytes, problem: problem)
            rows = table.rows.map { values in
                Dictionary(uniqueKeysWithValues: zip(table.columns, values.map { Optional($0) }))
            }
        }
    }

    /// An object or array kept as JSON text, for a column that holds JSON (Supabase's
    /// `raw_user_meta_data`).
    private static func serialized(_ value: SourceJSON) -> String {
        switch value {
        case .object(let members):
            return "{" + members.map { "\"\($0.key)\":" + serialized($0.value) }.joined(separator: ",") + "}"
        case .array(let values): return "[" + values.map(serialized).joined(separator: ",") + "]"
        case .text(let text):
            var out: [UInt8] = []
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += Array("\\\"".utf8)
                case "\\": out += Array("\\\\".utf8)
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: out += Array(String(scalar).utf8)
                }
            }
            return "\"" + String(decoding: out, as: UTF8.self) + "\""
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        default: return value.text ?? "null"
        }
    }

    /// Every row of `table` in the SQLite database at `path`, opened read-only (the source is
    /// never written).
    private static func sqlite(
        _ path: String, table: String, problem: (String, String) -> AccountError
    ) throws(AccountError) -> [[String: String?]] {
        var database: OpaquePointer?
        defer { sqlite3_close_v2(database) }
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw problem("the SQLite database cannot be opened", "SQLite 데이터베이스를 열 수 없습니다")
        }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(database, "SELECT * FROM \"\(table)\"", -1, &statement, nil) == SQLITE_OK else {
            throw problem("the database has no table \(table)", "데이터베이스에 \(table) 테이블이 없습니다")
        }
        let count = sqlite3_column_count(statement)
        let names = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [[String: String?]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else {
                throw problem("reading \(table) failed", "\(table)을(를) 읽지 못했습니다")
            }
            var row: [String: String?] = [:]
            for index in 0..<count {
                row[names[Int(index)]] = sqlite3_column_text(statement, index).map { String(cString: $0) }
            }
            rows.append(row)
        }
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
}
