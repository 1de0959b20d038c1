import AccountCore
import DurableFiles

/// The errors of a source file read as a whole, in one place.
enum SourceProblem {
    /// `invalidExport` for `path` as a `system` export, saying what is wrong; nothing is written.
    static func invalid(_ path: String, _ system: String, _ english: String, _ korean: String) -> AccountError {
        AccountError.invalidExport(
            detail: ErrorDetail([
                .translated(
                    english: "\(path): not a \(system) export as expected (\(english))",
                    korean: "\(path): 예상한 \(system) 내보내기 파일이 아닙니다 (\(korean))"),
                .outcome(.nothingWritten),
            ]))
    }

    /// `invalidExport` for a file that changed between the check and the import.
    static func changed(_ path: String, _ system: String) -> AccountError {
        AccountError.invalidExport(
            detail: ErrorDetail([
                .translated(
                    english: "\(path): the \(system) export changed after it was checked",
                    korean: "\(path): \(system) 내보내기 파일이 검사한 뒤에 바뀌었습니다"),
                .outcome(.fileChangedAfterCheck),
            ]))
    }

    /// The largest source file read whole (a million users' JSON is a few hundred MB).
    static let sizeLimit = 8 << 30

    /// The whole file at `path` (a pipe too), or `invalidExport` when it cannot be read.
    static func contents(of path: String, _ system: String) throws(AccountError) -> [UInt8] {
        do {
            return try WholeInput.read(path, atMost: sizeLimit)
        } catch {
            throw invalid(path, system, "\(error.operation): \(error.reason)", "\(error.operation): \(error.reason)")
        }
    }
}
