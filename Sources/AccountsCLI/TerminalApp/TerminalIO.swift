import AccountCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The app's questions and answers on the terminal, in the user's language.
struct TerminalIO {
    let language: Language

    /// How a prompt is left with Ctrl-C or Ctrl-D, the same way for both: from a menu it is a
    /// quit (nothing is unfinished there), from a form or a question it cancels.
    enum Leaving {
        /// "Goodbye.", status 0.
        case quit
        /// "Cancelled; nothing unfinished was saved.", status 130.
        case cancel
    }

    /// A menu's choice, trimmed; Ctrl-D or Ctrl-C there quits (`q`).
    func choose(_ prompt: String) throws -> String {
        do {
            return try ask(prompt, leaving: .quit)
        } catch is PromptCancelled {
            return "q"
        }
    }

    /// A visible answer, trimmed, compared but never kept (broken UTF-8 is shown as `U+FFFD`
    /// and matches nothing). Ctrl-D throws `PromptCancelled`.
    func ask(_ prompt: String, leaving: Leaving = .cancel) throws -> String {
        prepare(leaving)
        return try TerminalPrompt.readVisible(prompt, language: language).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// A visible answer that is kept (an ID, a nickname), trimmed; `nil` when its bytes are not
    /// UTF-8, which the caller refuses with the field's rule. Ctrl-D throws `PromptCancelled`.
    func askStrictly(_ prompt: String) throws -> String? {
        prepare(.cancel)
        let bytes = try TerminalPrompt.readVisibleBytes(prompt, language: language)
        return String(validating: bytes, as: UTF8.self)?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A secret, read with echo off (broken UTF-8 is refused with `invalidPassword(.notUTF8)`).
    func askHidden(_ prompt: String) throws -> String {
        prepare(.cancel)
        return try TerminalPrompt.readHidden(prompt, language: language)
    }

    /// The message and status `leaving` prints and exits with (the app prints the same when
    /// Ctrl-D ends a prompt: `quit` returns to the menu's `q`, `cancel` throws).
    func farewell(_ leaving: Leaving) -> (message: String, status: Int32) {
        let text = InteractiveMessages(language: language)
        switch leaving {
        case .quit: return (text.goodbye, ExitStatus.success)
        case .cancel: return (text.cancelled, ExitStatus.interrupted)
        }
    }

    /// Makes Ctrl-C at the next prompt leave as `leaving` says.
    private func prepare(_ leaving: Leaving) {
        let (message, status) = farewell(leaving)
        let shown = Self.lines(message).map { $0 + "\n" }.joined()
        TerminalPrompt.interruption = (Array(shown.utf8), status)
    }

    /// A line for the person at the terminal, hidden characters escaped (`VisibleText`) and
    /// wrapped at spaces to the terminal's width when it can be told.
    func show(_ line: String) {
        for shown in Self.lines(line) { print(shown) }
    }

    /// `line` as `show` prints it: escaped, and wrapped when the width is known, continued lines
    /// aligned under the text after the line's indent and its `✗ ` mark.
    static func lines(_ line: String) -> [String] {
        let visible = VisibleText.escaping(line, keeping: VisibleText.layout)
        let paragraphs = visible.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let columns else { return paragraphs }
        return paragraphs.flatMap { paragraph in
            let indent = paragraph.prefix { $0 == " " }.count
            let marked = paragraph.dropFirst(indent).hasPrefix("✗ ") ? 2 : 0
            return paragraph.wrapped(toColumns: columns, continuation: String(repeating: " ", count: indent + marked))
        }
    }

    /// The terminal's width in columns (standard output's); `nil` when it cannot be told (a
    /// terminal of size 0 × 0), where lines are left for the terminal to wrap.
    static var columns: Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Every problem of an answer at once, one per line, so they can all be fixed in one try.
    func show(problems: [AccountError]) {
        for problem in problems { show("  ✗ " + problem.message(language)) }
    }
}
