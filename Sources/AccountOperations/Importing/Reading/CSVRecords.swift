import AccountCore

/// The rows of a CSV file with a header row, one at a time (RFC 4180: quoted fields, doubled
/// quotes, line breaks inside quotes, CRLF or LF), as `psql \copy … csv header`, Rails and SQL
/// Server's exports and spreadsheets write them. The separator is the header's: a comma, a
/// semicolon (a spreadsheet in a locale that writes decimal commas) or a tab, whichever of them
/// the header row splits on most. Every field must be UTF-8 text, every row as wide as the
/// header.
final class CSVRecords {
    /// The header's column names.
    let columns: [String]
    /// The separator the header uses.
    let separator: UInt8
    private let bytes: SourceBytes
    private let problem: (_ english: String, _ korean: String) -> AccountError
    /// Rows read so far, the header included.
    private(set) var rowNumber = 1

    init(_ bytes: SourceBytes, problem: @escaping (_ english: String, _ korean: String) -> AccountError)
        throws(AccountError)
    {
        self.bytes = bytes
        self.problem = problem
        separator = try Self.separator(bytes)
        var header: [String]?
        header = try Self.record(bytes, separator: separator, problem: problem, row: 1)
        guard let header, header != [""] else { throw problem("it is empty", "비어 있습니다") }
        columns = header
    }

    /// The next row, as long as the header; nil at the end.
    func next() throws(AccountError) -> [String]? {
        rowNumber += 1
        guard let row = try Self.record(bytes, separator: separator, problem: problem, row: rowNumber) else {
            return nil
        }
        guard row.count == columns.count else {
            throw problem(
                "row \(rowNumber) has \(row.count) fields; the header has \(columns.count)",
                "\(rowNumber)번째 행의 필드는 \(row.count)개이고 머리 행은 \(columns.count)개입니다")
        }
        return row
    }

    /// The separator the first line splits on most, counted outside quotes (a comma when none).
    private static func separator(_ bytes: SourceBytes) throws(AccountError) -> UInt8 {
        guard try bytes.peek() != nil else { return UInt8(ascii: ",") }
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, 0x09: 0]
        var quoted = false
        for byte in bytes.chunk[bytes.index...] {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted, byte == 0x0A { break }
            if !quoted, counts[byte] != nil { counts[byte]! += 1 }
        }
        let best = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }!
        return best.value > 0 ? best.key : UInt8(ascii: ",")
    }

    /// One record's fields, or nil at the end of the file (a last line without its line break
    /// is a record all the same).
    private static func record(
        _ bytes: SourceBytes, separator: UInt8, problem: (String, String) -> AccountError, row: Int
    ) throws(AccountError) -> [String]? {
        guard try bytes.peek() != nil else { return nil }
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var afterQuote = false
        func finish() throws(AccountError) {
            guard let text = String(validating: field, as: UTF8.self) else {
                throw problem("row \(row) is not UTF-8 text", "\(row)번째 행이 UTF-8 텍스트가 아닙니다")
            }
            fields.append(text)
            field.removeAll(keepingCapacity: true)
            afterQuote = false
        }
        while let byte = try bytes.peek() {
            bytes.index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if try bytes.peek() == UInt8(ascii: "\"") {
                        bytes.index += 1
                        field.append(byte)
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            if byte == 0x0D, try bytes.peek() == 0x0A { continue }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty && !afterQuote:
                quoted = true
            case separator:
                try finish()
            case 0x0A:
                try finish()
                return fields
            default:
                guard !afterQuote else {
                    throw problem(
                        "row \(row) has text after a quoted field's closing quote",
                        "\(row)번째 행에 따옴표로 닫은 필드 뒤에 글자가 있습니다")
                }
                field.append(byte)
            }
        }
        guard !quoted else { throw problem("a quoted field is never closed", "따옴표로 연 필드가 닫히지 않습니다") }
        try finish()
        return fields
    }
}
