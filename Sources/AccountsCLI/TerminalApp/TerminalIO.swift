import AccountCore

/// The app's questions and answers on the terminal, in the user's language.
struct TerminalIO {
    let language: Language

    /// A visible answer, trimmed.
    func ask(_ prompt: String) throws -> String {
        try TerminalPrompt.readVisible(prompt, language: language).trimmingWhitespace()
    }

    /// A secret, read with echo off (broken UTF-8 is refused with `invalidPassword(.notUTF8)`).
    func askHidden(_ prompt: String) throws -> String {
        try TerminalPrompt.readHidden(prompt, language: language)
    }

    func show(_ line: String) {
        print(line)
    }

    /// Every problem of an answer at once, one per line, so they can all be fixed in one try.
    func show(problems: [AccountError]) {
        for problem in problems { show("  ✗ " + problem.message(language)) }
    }
}
