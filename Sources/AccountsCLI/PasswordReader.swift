import AccountCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where secrets come from: lines on standard input (`--password-stdin`), or prompts on the
/// terminal with echo off. A secret is never echoed, logged or put in an error.
struct PasswordReader {
    let fromStandardInput: Bool
    let language: Language

    /// Reads one secret; `prompt` is shown only on a terminal.
    func read(_ prompt: String, what: String) throws -> String {
        if fromStandardInput {
            guard var line = readLine(strippingNewline: true) else {
                throw UsageProblem(
                    english: "Expected a line with the \(what) on standard input (--password-stdin).",
                    korean: "표준 입력에서 \(what) 줄을 읽지 못했습니다 (--password-stdin).")
            }
            if line.hasSuffix("\r") { line.removeLast() }
            return line
        }
        return try TerminalPrompt.readHidden(prompt, language: language)
    }

    /// Asks a yes/no question on the terminal (echo on).
    func confirm(_ prompt: String) throws -> Bool {
        let answer = try TerminalPrompt.readVisible(prompt, language: language)
        return Self.isYes(answer)
    }

    /// Whether an answer means yes, in English or Korean.
    static func isYes(_ answer: String) -> Bool {
        ["yes", "y", "예", "네"].contains(answer.lowercased().trimmingWhitespace())
    }
}
