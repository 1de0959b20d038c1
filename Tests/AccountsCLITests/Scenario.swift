import AccountTestSupport
import BackendTestSupport
import Foundation

/// A scenario file: `accounts` invocations with their input and expected output.
///
/// Format, one item per line:
/// - `# …` a comment (kept when output is recorded); blank lines are ignored
/// - `@embedded-only REASON` runs the scenario on the file backends only (it is about files)
/// - `@env NAME=VALUE` sets an environment variable for every later command
/// - `@file NAME TEXT` writes TEXT (with `\n` for newlines) to `$ROOT/NAME`
/// - `$ ARGS` runs `accounts ARGS` (split on spaces; `'…'` keeps spaces; `$ROOT` is the sandbox)
/// - `< LINE` a line of standard input for that command
/// - `> LINE` an expected line of standard output
/// - `! LINE` an expected line of standard error
/// - `= N` the expected exit status
///
/// Output is compared after `ScenarioNormalizer` has replaced what legitimately varies.
struct Scenario {
    enum Item: Equatable {
        case comment(String)
        case embeddedOnly(String)
        case env(String, String)
        case file(String, String)
        case command(Command)
    }

    struct Command: Equatable {
        var arguments: String
        var stdin: [String] = []
        var stdout: [String] = []
        var stderr: [String] = []
        var status: Int32 = 0
    }

    var name: String
    var comments: [String: String] = [:]
    var items: [Item] = []

    /// Why the scenario runs on the file backends only, if it does.
    var embeddedOnlyReason: String? {
        for case .embeddedOnly(let reason) in items { return reason }
        return nil
    }

    init(name: String, text: String) throws {
        self.name = name
        var current: Command?
        func flush() {
            if let command = current { items.append(.command(command)) }
            current = nil
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                flush()
                items.append(.comment(line))
                continue
            }
            let body = line.count > 2 ? String(line.dropFirst(2)) : ""
            switch line.prefix(2) {
            case "@e" where line.hasPrefix("@embedded-only "):
                flush()
                items.append(.embeddedOnly(String(line.dropFirst(15))))
            case "@e" where line.hasPrefix("@env "):
                flush()
                let pair = line.dropFirst(5).split(separator: "=", maxSplits: 1).map(String.init)
                items.append(.env(pair[0], pair.count > 1 ? pair[1] : ""))
            case "@f" where line.hasPrefix("@file "):
                flush()
                let parts = line.dropFirst(6).split(separator: " ", maxSplits: 1).map(String.init)
                items.append(
                    .file(parts[0], (parts.count > 1 ? parts[1] : "").replacingOccurrences(of: "\\n", with: "\n")))
            case "$ ":
                flush()
                current = Command(arguments: body)
            case "< ", "<": current?.stdin.append(body)
            case "> ", ">": current?.stdout.append(body)
            case "! ", "!": current?.stderr.append(body)
            case "= ": current?.status = Int32(body) ?? -1
            default: throw CLIRunner.CLIError("\(name): cannot read the line '\(line)'")
            }
        }
        flush()
    }

    /// The scenario written back in its own format (used to show what a run produced).
    func rendered() -> String {
        var lines: [String] = []
        for item in items {
            switch item {
            case .comment(let text): lines.append(text)
            case .embeddedOnly(let reason): lines.append("@embedded-only \(reason)")
            case .env(let key, let value): lines.append("@env \(key)=\(value)")
            case .file(let name, let text):
                lines.append("@file \(name) \(text.replacingOccurrences(of: "\n", with: "\\n"))")
            case .command(let command):
                lines.append("$ \(command.arguments)")
                lines += command.stdin.map { "< \($0)" }
                lines += command.stdout.map { $0.isEmpty ? ">" : "> \($0)" }
                lines += command.stderr.map { $0.isEmpty ? "!" : "! \($0)" }
                lines.append("= \(command.status)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Splits command arguments on spaces, keeping `'quoted parts'` whole.
    static func split(_ arguments: String) -> [String] {
        var result: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in arguments {
            if character == "'" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { result.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { result.append(current) }
        return result
    }
}
