import AccountCore
import AccountSettings
import ArgumentParser
import Foundation

/// A command line that does not parse, said the way the rest of the CLI says errors: one short
/// message naming the real mistake, and the usage apart from it (a field of its own under
/// `--json`, lines after the message otherwise).
///
/// The parser's own message is kept, except where it points the wrong way: a word that is no
/// command is reported as such (with the nearest command) rather than as the option after it,
/// and the app's options given to `accounts` alone are shown where they go (`accounts app …`).
struct UsageMistake {
    let message: String
    let usage: String

    init(_ error: any Error, arguments: [String], language: Language) {
        let parserMessage = AccountsCommand.message(for: error)
        let full = AccountsCommand.fullMessage(for: error)
        usage = Self.usage(in: full, after: parserMessage)
        message = Self.betterMessage(arguments, language: language) ?? parserMessage
    }

    /// The parser's text after its message: the usage lines (and any "Help:" line before them).
    private static func usage(in full: String, after message: String) -> String {
        guard let range = full.range(of: message) else { return full }
        return String(full[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The message for the mistakes the parser names wrongly, or `nil`.
    private static func betterMessage(_ arguments: [String], language: Language) -> String? {
        let korean = language == .korean
        var command: any ParsableCommand.Type = AccountsCommand.self
        var path = ["accounts"]
        for (index, argument) in arguments.enumerated() {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, argument != "help" else { return nil }
            if argument.hasPrefix("-") {
                // Options before any command: the app's, when the whole line is one for it.
                guard index == 0, (try? AppCommand.parse(arguments)) != nil else { return nil }
                let line = (["accounts", "app"] + arguments).joined(separator: " ")
                return korean
                    ? "\(argument)는 accounts 자체의 옵션이 아닙니다. 앱의 옵션은 app 다음에 씁니다: \(line)"
                    : "\(argument) is not an option of accounts itself; the app's options go after app: \(line)"
            }
            let names = subcommands.compactMap { $0.configuration.commandName }
            if let next = subcommands.first(where: { $0.configuration.commandName == argument }) {
                command = next
                path.append(argument)
                continue
            }
            if path == ["accounts"], argument == "serve" {
                // Left out by the package trait `Server` (an embedding package's build).
                return korean
                    ? "이 accounts에는 serve가 없습니다: 패키지 트레이트 Server 없이 빌드되었습니다."
                    : "'serve' is not in this build of accounts: it was built without the package trait Server."
            }
            let owner = path.joined(separator: " ")
            let nearest = names.map { (name: $0, distance: EditDistance.between(argument, $0)) }
                .filter { $0.distance <= 2 || $0.name.hasPrefix(argument) }
                .min { ($0.distance, $0.name) < ($1.distance, $1.name) }?.name
            let hint = nearest.map { korean ? " \(owner) \($0)을(를) 뜻했나요?" : " Did you mean '\(owner) \($0)'?" } ?? ""
            return korean
                ? "'\(argument)'는 \(owner)의 명령이 아닙니다.\(hint)"
                : "'\(argument)' is not a command of \(owner).\(hint)"
        }
        return nil
    }
}
