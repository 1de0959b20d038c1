import AccountCore

/// A CSV file with a header row (RFC 4180: quoted fields, doubled quotes, line breaks inside
/// quotes, CRLF or LF), as `psql \copy … csv header`, Rails and SQL Server's exports write it.
struct CSVTable {
    /// The header's column names.
    let columns: [String]
    /// The rows after the header, each as long as `columns`.
    let rows: [[String]]

    /// Parses `bytes`; `invalidExport` (through `problem`) for text that is not UTF-8, an
    /// unclosed quote, or a row of another width than the header.
    init(_ bytes: [UInt8], problem: (_ english: String, _ korean: String) -> AccountError) throws(AccountError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw problem("it is not UTF-8 text", "UTF-8 텍스트가 아닙니다")
        }
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return iterator.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    let following = next()
                    if following == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                        pending = following
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true
            case ",":
                record.append(field)
                field = ""
            case "\r": continue
            case "\n":
                record.append(field)
                records.append(record)
                record = []
                field = ""
            default: field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { throw problem("a quoted field is never closed", "따옴표로 연 필드가 닫히지 않습니다") }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        guard let header = records.first else { throw problem("it is empty", "비어 있습니다") }
        for (index, row) in records.enumerated().dropFirst() where row.count != header.count {
            throw problem(
                "row \(index + 1) has \(row.count) fields; the header has \(header.count)",
                "\(index + 1)번째 행의 필드는 \(row.count)개이고 머리 행은 \(header.count)개입니다")
        }
        columns = header
        rows = Array(records.dropFirst())
    }

    /// The position of the first of `names` the header has (names compared without case).
    func column(_ names: String...) -> Int? {
        for name in names {
            if let index = columns.firstIndex(where: { $0.lowercased() == name.lowercased() }) { return index }
        }
        return nil
    }
}
