import AccountBackendKit
import AccountCore
import AccountJSON
import AccountOperations
import AccountSettings
import ArgumentParser

/// Write the store as versioned JSON Lines.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export every account as versioned JSON Lines (with password hashes).",
        discussion: """
            The file holds password hashes: it is created with mode 0600 and should be kept like the store. \
            Without --output, or with --output -, the lines go to standard output and the summary to \
            standard error.
            """)

    @Option(
        help:
            "Write to this file, atomically: a failed export leaves the file as it was (a device or pipe such as /dev/null is written as it goes); - is standard output.",
        completion: .file())
    var output: String?
    @Flag(name: .customLong("with-sessions"), help: "Include sessions (their token digests), so users stay signed in.")
    var withSessions = false
    @OptionGroup var options: StoreOptions

    /// The file to write, or `nil` for standard output (no `--output`, or `--output -`, as
    /// `import --input -` reads standard input).
    var outputFile: String? { output == "-" ? nil : output }

    func run() async throws {
        let output = outputFile
        try await CommandContext.run(options) { context in
            let summary = try await context.withAdministration(reading: true) { administration in
                let progress = ProgressLine(
                    .exported, total: try await administration.userCount(), messages: context.messages,
                    json: options.base.json)
                defer { progress.finish() }
                if let output {
                    let sink = try LineFile(path: output)
                    do {
                        let summary = try await administration.export(
                            sourceBackend: context.settings.backend.name, withSessions: withSessions,
                            progress: progress.update, write: sink.write)
                        try sink.commit()
                        return summary
                    } catch let error as AccountError {
                        throw sink.explaining(error)
                    }
                }
                return try await administration.export(
                    sourceBackend: context.settings.backend.name, withSessions: withSessions,
                    progress: progress.update, write: { Swift.print($0) })
            }
            var line = context.messages.exported(users: summary.users, sessions: summary.sessions)
            if summary.mailLeftQueued > 0 { line += "\n" + context.messages.mailLeftQueued(summary.mailLeftQueued) }
            let fields: [(String, JSONValue)] = [
                ("users", .int(Int64(summary.users))), ("sessions", .int(Int64(summary.sessions))),
                ("sha256", .string(summary.digest)), ("mail_left_queued", .int(Int64(summary.mailLeftQueued))),
            ]
            guard output != nil else {
                // Standard output carries the data; the summary goes beside it.
                var standardError = StandardError()
                Swift.print(
                    options.base.json ? JSONValue.object([("ok", .bool(true))] + fields).serialized() : line,
                    to: &standardError)
                return CommandReply(lines: [], fields: [], suppressJSON: true)
            }
            return CommandReply(lines: [line], fields: fields)
        }
    }
}
