import AccountTestSupport
import BackendTestSupport
import Foundation

/// The one place that says which parts of `accounts` output may differ between runs and
/// backends, and replaces them with placeholders before scenario output is compared:
///
/// | what | becomes | why |
/// |---|---|---|
/// | the sandbox folder | `<root>` | every run has its own |
/// | `accounts.sqlite` / `.lmdb` / `.json` | `accounts.<store>` | each backend's default file name |
/// | 32-hex user ids and store ids | `<id>` | drawn at random |
/// | 64-hex digests | `<sha256>` | cover ids and times |
/// | `…_ms` timestamps in JSON and `… ms` in text | `<ms>` | the clock |
/// | ISO 8601 times (`2026-11-22T21:02:22.760Z`) | `<time>` | the clock |
/// | seconds left in a throttle | `<n>` | the clock |
/// | "the SQLite backend" (and LMDB, JSON-file, PostgreSQL) | `the <backend> backend` | the backend's own name in its messages |
/// | "from sqlite to" (and lmdb, json, postgres) | `from <backend> to` | `migrate` names its source backend |
/// | "a SQLite database", "an LMDB environment", "an AccountStore JSON store" | `<another backend's store>` | which foreign store was met |
/// | where a missing store is ("There is no store at …,") | `<the store>` | a file, or a server's schema |
enum ScenarioNormalizer {
    static func normalize(_ line: String, root: String) -> String {
        var text = line.replacingOccurrences(of: root, with: "<root>")
        let rules: [(String, String)] = [
            (#"accounts\.(sqlite|lmdb|json)"#, "accounts.<store>"),
            (#"\b[0-9a-f]{64}\b"#, "<sha256>"),
            (#"\b[0-9a-f]{32}\b"#, "<id>"),
            (#"("[a-z_]*_ms":)-?\d+"#, "$1<ms>"),
            (#"\b\d{10,} ms\b"#, "<ms> ms"),
            (#"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\b"#, "<time>"),
            (#"("retry_after_seconds":)\d+"#, "$1<n>"),
            (#"try again in \d+ seconds?"#, "try again in <n> seconds"),
            (#"\d+초 후에"#, "<n>초 후에"),
            (#"the (SQLite|LMDB|JSON-file|PostgreSQL) backend"#, "the <backend> backend"),
            (#"from (sqlite|lmdb|json|postgres) to"#, "from <backend> to"),
            (#"(a SQLite database|an LMDB environment|an AccountStore JSON store)"#, "<another backend's store>"),
            (
                #"There is no store at [^,]+, and none was created"#,
                "There is no store at <the store>, and none was created"
            ),
        ]
        for (pattern, replacement) in rules {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}
