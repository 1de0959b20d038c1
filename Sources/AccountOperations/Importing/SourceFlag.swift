import AccountCore

/// A yes-or-no column of another system's export, as its forms write it: SQLite's `1`/`0`,
/// PostgreSQL's `t`/`f`, CSV's and JSON's `true`/`false`. Anything else is named, never
/// guessed: a record whose `blocked` reads as neither is refused rather than let in.
enum SourceFlag {
    /// The flag `value` spells (nil for an absent, NULL or empty one), or the problem naming
    /// `column` for a value that is neither.
    static func read(_ value: String?, column: String) -> (flag: Bool?, problem: RecordProblem?) {
        guard let value, !value.isEmpty else { return (nil, nil) }
        switch value.lowercased() {
        case "1", "t", "true", "yes", "y": return (true, nil)
        case "0", "f", "false", "no", "n": return (false, nil)
        default:
            let shown = VisibleText.escaping(String(value.prefix(24)))
            let problem = RecordProblem(
                english: "Its \(column) holds '\(shown)', which is neither true nor false.",
                korean: "\(column)의 값 '\(shown)'은(는) 참도 거짓도 아닙니다.", mendableInFile: false)
            return (nil, problem)
        }
    }

    /// The flag of `column` in `row` (false when unset), a problem added to `account`'s.
    static func read(_ row: [String: String?], _ column: String, into account: inout ForeignAccount) -> Bool {
        let (flag, problem) = read(row.value(column), column: column)
        if let problem { account.problems.append(problem) }
        return flag ?? false
    }
}
