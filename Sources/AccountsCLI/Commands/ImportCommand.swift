import AccountCore
import AccountOperations
import ArgumentParser
import JSONSupport

/// Load an export file into the configured store.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import an export file into an empty store (or merge with --merge).",
        discussion: "The whole file is checked first: a truncated or edited file writes nothing.")

    @Option(
        help: "The export file (or a pipe, such as <(zcat all.jsonl.gz)); - reads it from standard input.",
        completion: .file())
    var input: String
    @Flag(help: "Add to a non-empty store; an email already there is reported and never overwritten.") var merge = false
    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            // Standard input or a pipe is read once into a private file: the import checks the
            // whole file before the store is opened, then reads it again to load it.
            let staged = try StagedInput.ifNeeded(input, standardInputName: context.messages.standardInput)
            let file = try StoreImporter.validate(staged?.path ?? input, shownAs: staged?.name)
            let progress = ProgressLine(
                .imported, total: file.header.users, messages: context.messages, json: options.base.json)
            let report = try await context.withAdministration(creating: true) {
                defer { progress.finish() }
                return try await $0.importFile(file, merge: merge, progress: progress.update)
            }
            let lines =
                [context.messages.imported(users: report.imported, sessions: report.sessions)]
                + report.conflicts.map(context.messages.importConflict)
            return CommandReply(
                lines: lines,
                fields: [
                    ("imported", .int(Int64(report.imported))), ("sessions", .int(Int64(report.sessions))),
                    ("conflicts", .array(report.conflicts.map(JSONValue.string))),
                ])
        }
    }
}
