import AccountCore
import AccountCrypto
import AccountJSON
import AccountOperations
import AccountSettings
import ArgumentParser

/// Load an export file — this store's own, or another system's — into the configured store.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import accounts into an empty store (or merge with --merge): an export of this store, or of Strapi, Django, Firebase, Supabase, Devise, Kratos, Keycloak or ASP.NET Identity.",
        discussion: """
            The whole file is read and every record checked first: a truncated or edited file, or a record that \
            breaks a rule of stored accounts, writes nothing (--skip-invalid stores the rest). Password hashes are \
            kept as the other system made them; each becomes Argon2id at its user's first login.
            """)

    /// This store's own export format, `--from`'s default.
    static let ownFormat = "accounts"

    @Option(
        help: "The file (or a pipe, such as <(zcat all.jsonl.gz)); - reads it from standard input.",
        completion: .file())
    var input: String
    @Option(
        help: ArgumentHelp(
            "Whose export the file is.",
            discussion: "One of: \(([ownFormat] + ForeignSources.names).joined(separator: ", ")).",
            valueName: "name"))
    var from = ownFormat
    @Flag(help: "Add to a non-empty store; an email already there is reported and never overwritten.") var merge = false
    @Flag(help: "Read and check everything, report what would be imported and refused, and write nothing.")
    var dryRun = false
    @Option(
        help: ArgumentHelp(
            "Store the valid records and write each refused one, with its reasons, to this file (JSON Lines, mode 0600).",
            valueName: "file"), completion: .file())
    var skipInvalid: String?
    @OptionGroup var firebase: FirebaseHashOptions
    @OptionGroup var devise: DevisePepperOption
    @OptionGroup var options: StoreOptions

    func validate() throws {
        guard from == Self.ownFormat || ForeignSources.names.contains(from) else {
            throw ValidationError(
                "Unknown --from '\(from)'; one of: \(([Self.ownFormat] + ForeignSources.names).joined(separator: ", "))."
            )
        }
        guard from != FirebaseSource.name || firebase.firebaseHashConfig != nil else {
            throw ValidationError(
                "--from firebase needs the project's password hash parameters: paste them from the Firebase console (Authentication, Users, Password hash parameters) into a file and give it with --firebase-hash-config."
            )
        }
    }

    func run() async throws {
        try await CommandContext.run(options) { context in
            // Standard input or a pipe is read once into a private file: the import checks the
            // whole file before the store is opened, then reads it again to load it.
            let staged = try StagedInput.ifNeeded(input, standardInputName: context.messages.standardInput)
            let path = staged?.path ?? input
            let name = staged?.name ?? input
            if from == Self.ownFormat {
                let file = try StoreImporter.validate(
                    path, shownAs: staged?.name, skippingInvalid: skipInvalid != nil || dryRun)
                return try await finish(
                    context, refused: file.refused, wouldImport: file.header.users - file.refused.count, schemes: [:]
                ) { progress in
                    try await context.withAdministration(creating: true) {
                        try await $0.importFile(file, merge: merge, progress: progress)
                    }
                }
            }
            let options = ForeignSourceOptions(firebase: try firebase.parameters(), devisePepper: try devise.pepper())
            let source = try ForeignSources.source(named: from, options: options)!
            let plan = ForeignImporter.plan(
                try source.accounts(in: path), now: SystemClock().now(), random: SodiumRandomSource(),
                limits: context.settings.legacyLimits)
            if skipInvalid == nil, !dryRun, let first = plan.refused.first {
                throw AccountError.invalidExport(
                    detail: ErrorDetail([
                        .translated(
                            english: "\(name) \(first.source): \(first.problem(.english))"
                                + (plan.refused.count > 1 ? " (and \(plan.refused.count - 1) more)" : ""),
                            korean: "\(name) \(first.source): \(first.problem(.korean))"
                                + (plan.refused.count > 1 ? " (그 밖에 \(plan.refused.count - 1)개)" : "")),
                        .outcome(.nothingWritten),
                    ]))
            }
            return try await finish(
                context, refused: plan.refused, wouldImport: plan.users.count, schemes: plan.schemes
            ) { progress in
                try await context.withAdministration(creating: true) {
                    try await ForeignImporter.store(plan, into: $0.repository, merge: merge, progress: progress)
                }
            }
        }
    }

    /// The dry run's report, or the refused records written and `load` run with a progress line.
    private func finish(
        _ context: CommandContext, refused: [RefusedRecord], wouldImport: Int, schemes: [String: Int],
        load: (_ progress: @escaping (Int) -> Void) async throws -> ImportReport
    ) async throws -> CommandReply {
        let refusedLines = refused.map(context.messages.refused)
        let schemeLines = schemes.isEmpty ? [] : [context.messages.schemeCounts(schemes)]
        let schemeFields = JSONValue.object(schemes.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })
        let refusedField = JSONValue.array(
            refused.map { .object([("source", .string($0.source)), ("email", .string($0.user.email))]) })
        if dryRun {
            return CommandReply(
                lines: refusedLines + schemeLines
                    + [context.messages.wouldImport(users: wouldImport, refused: refused.count)],
                fields: [
                    ("dry_run", .bool(true)), ("would_import", .int(Int64(wouldImport))),
                    ("refused", refusedField), ("password_schemes", schemeFields),
                ])
        }
        if let skipInvalid, !refused.isEmpty {
            let sink = try LineFile(path: skipInvalid)
            for line in RefusedRecordsFile.lines(refused) { try sink.write(line) }
            try sink.commit()
        }
        let progress = ProgressLine(.imported, total: wouldImport, messages: context.messages, json: options.base.json)
        let report = try await {
            defer { progress.finish() }
            return try await load(progress.update)
        }()
        let written = skipInvalid.flatMap {
            refused.isEmpty
                ? nil
                : context.messages.refusedWritten(
                    refused.count, unmendable: refused.filter { !$0.mendableInFile }.count, to: $0)
        }
        return CommandReply(
            lines: refusedLines + schemeLines
                + [context.messages.imported(users: report.imported, sessions: report.sessions)]
                + report.conflicts.map(context.messages.importConflict)
                + (report.renumbered > 0 ? [context.messages.renumbered(report.renumbered)] : [])
                + (written.map { [$0] } ?? []),
            fields: [
                ("imported", .int(Int64(report.imported))), ("sessions", .int(Int64(report.sessions))),
                ("renumbered", .int(Int64(report.renumbered))),
                ("conflicts", .array(report.conflicts.map(JSONValue.string))), ("refused", refusedField),
                ("password_schemes", schemeFields),
            ])
    }
}
