import AccountCore
import AccountJSON

#if canImport(Glibc)
    import Glibc
#endif

/// Prints a reply or a failure: lines for people (errors on standard error), or exactly one
/// JSON object on standard output with `--json`.
struct ReplyPrinter {
    let json: Bool
    let language: Language

    func print(_ reply: CommandReply) {
        if reply.suppressJSON { return }
        if json {
            var fields: [(String, JSONValue)] = [("ok", .bool(reply.exitStatus == ExitStatus.success))]
            if let error = reply.jsonError {
                fields.append(("error", .object([("code", .string(error.code)), ("message", .string(error.message))])))
            }
            fields += reply.fields
            if let warning = reply.warning { fields.append(("warning", .string(warning))) }
            writeOut(JSONValue.object(fields).serialized())
        } else {
            for line in reply.lines { writeOut(line) }
            if let warning = reply.warning { writeError(warning) }
        }
    }

    func print(_ error: AccountError) {
        var extra: [(String, JSONValue)] = []
        if case .tooManyAttempts(let seconds) = error { extra.append(("retry_after_seconds", .int(seconds))) }
        printFailure(code: error.code, message: error.message(language), extra: extra)
    }

    /// A refused form: the first rule as any error, and every rule under `problems` (as the
    /// native API lists them); as text, one line per rule.
    func print(_ invalid: InvalidFields) {
        guard json else {
            for problem in invalid.problems {
                printFailure(code: problem.error.code, message: problem.error.message(language))
            }
            return
        }
        let problems = invalid.problems.map { problem in
            JSONValue.object([
                ("code", .string(problem.error.code)), ("field", .string(problem.field)),
                ("message", .string(problem.error.message(language))),
            ])
        }
        printFailure(
            code: invalid.first.code, message: invalid.first.message(language), extra: [("problems", .array(problems))])
    }

    func printFailure(code: String, message: String, extra: [(String, JSONValue)] = []) {
        if json {
            let error = JSONValue.object([("code", .string(code)), ("message", .string(message))] + extra)
            writeOut(JSONValue.object([("ok", .bool(false)), ("error", error)]).serialized())
        } else {
            writeError("\(CLIMessages(language: language).errorPrefix): \(message)")
        }
    }

    /// A command line that did not parse: the short message as any error's, and the usage in a
    /// field of its own (`usage`) or on the lines after it.
    func print(_ mistake: UsageMistake) {
        if json {
            printFailure(code: "usage", message: mistake.message, extra: [("usage", .string(mistake.usage))])
        } else {
            printFailure(code: "usage", message: mistake.message + (mistake.usage.isEmpty ? "" : "\n" + mistake.usage))
        }
    }

    /// Every line for people goes out with hidden characters escaped (`VisibleText`), whatever
    /// made it: a record's text, an argument echoed in an error, an engine's message.
    private func writeOut(_ line: String) {
        Swift.print(json ? line : VisibleText.escaping(line, keeping: VisibleText.layout))
    }

    private func writeError(_ line: String) {
        var standardError = StandardError()
        Swift.print(VisibleText.escaping(line, keeping: VisibleText.layout), to: &standardError)
    }
}
