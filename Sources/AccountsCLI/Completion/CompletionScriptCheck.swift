import ArgumentParser

/// Spares a command line that asks for no completion script swift-argument-parser's check for
/// one.
///
/// Before it parses a command line, swift-argument-parser 1.8 parses it twice more, as two
/// hidden commands, to see whether it holds `--generate-completion-script`: about 0.7 ms of
/// every call in a release build (`accounts --version` 7.7 → 6.9 ms, `whoami` 11.9 → 11.3 ms,
/// 150 interleaved runs of both builds). It skips that check for a root command whose configuration names a
/// `_superCommandName`, a field nothing else reads but the help and usage text (which put it
/// before the tool's name). So a command line without that option is parsed with the field
/// set, inside ``withoutCompletionScriptCheck(_:_:)``, and every text is made after the parse,
/// outside it, where the configuration has no such field.
enum CompletionScriptCheck {
    /// Whether the root configuration asks swift-argument-parser to skip the check.
    @TaskLocal static var isSkipped = false

    /// What the root configuration carries while the check is skipped. Never shown: a help or
    /// usage text that did show it would be made inside the parse, which a test rules out.
    static let marker = "(completion-script-check-skipped)"

    /// Runs `parse`, skipping the check when no argument can be the option it looks for (one
    /// after `--` cannot, but the check then runs as before, which is merely slower).
    static func withoutCompletionScriptCheck<T>(_ arguments: [String], _ parse: () throws -> T) rethrows -> T {
        guard !arguments.contains(where: { $0.hasPrefix("--generate-completion-script") }) else {
            return try parse()
        }
        return try $isSkipped.withValue(true, operation: parse)
    }
}
