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
    @Flag(
        help:
            "Bring in accounts the other system blocked, disabled, banned, deleted or locked, blocked here (by default they are refused)."
    )
    var keepBlocked = false
    @Option(
        help: ArgumentHelp(
            "Write each stored user's source id with its id and number here (JSON Lines, mode 0600).",
            valueName: "file"), completion: .file())
    var idMap: String?
    @Option(
        help: ArgumentHelp(
            "Before writing, check that this user's password (the first line of standard input) verifies against the file's hash, with the Firebase parameters or Devise pepper given.",
            valueName: "email"))
    var checkLogin: String?
    @OptionGroup var firebase: FirebaseHashOptions
    @OptionGroup var devise: DevisePepperOption
    @OptionGroup var options: StoreOptions

    func validate() throws {
        if checkLogin != nil, input == "-" {
            throw ValidationError(
                "--check-login reads the password from standard input, so --input - cannot be used with it.")
        }
        if from == Self.ownFormat, checkLogin != nil || keepBlocked {
            throw ValidationError(
                "--check-login and --keep-blocked are for another system's export (--from); this store's own keeps its accounts' state."
            )
        }
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
            return try await importForeign(context, path: path, name: name)
        }
    }

    /// Another system's export: checked whole (and `--check-login` verified), then stored.
    private func importForeign(_ context: CommandContext, path: String, name: String) async throws -> CommandReply {
        let sourceOptions = ForeignSourceOptions(firebase: try firebase.parameters(), devisePepper: try devise.pepper())
        let source = try ForeignSources.source(named: from, options: sourceOptions)!
        let importOptions = ForeignImportOptions(
            limits: context.settings.legacyLimits, keepBlocked: keepBlocked, now: SystemClock().now(),
            checkLogin: checkLogin)
        let checking = ProgressLine(.checked, total: nil, messages: context.messages, json: options.base.json)
        let check = try {
            defer { checking.finish() }
            return try ForeignImporter.check(source, path: path, options: importOptions, progress: checking.update)
        }()
        var notes: [String] = []
        if let checkLogin { notes.append(try verifyLogin(checkLogin, against: check, context: context, name: name)) }
        if skipInvalid == nil, !dryRun, let first = check.refused.first {
            throw AccountError.invalidExport(
                detail: ErrorDetail([
                    .translated(
                        english: "\(name) \(first.source): \(first.problem(.english))"
                            + (check.refused.count > 1 ? " (and \(check.refused.count - 1) more)" : ""),
                        korean: "\(name) \(first.source): \(first.problem(.korean))"
                            + (check.refused.count > 1 ? " (그 밖에 \(check.refused.count - 1)개)" : "")),
                    .outcome(.nothingWritten),
                ]))
        }
        let states = [
            ("blocked", check.blocked), ("must_change_password", check.temporaryPasswords),
            ("email_verified", check.provenEmails),
        ]
        notes +=
            check.blocked + check.temporaryPasswords + check.provenEmails > 0
            ? [
                context.messages.stateCounts(
                    blocked: check.blocked, temporary: check.temporaryPasswords, proven: check.provenEmails)
            ]
            : []
        let mapFile = try idMap.map { try LineFile(path: $0) }
        let reply = try await finish(
            context, refused: check.refused, wouldImport: check.wouldImport, schemes: check.schemes, notes: notes,
            stateFields: states
        ) { progress in
            try await context.withAdministration(creating: true) { administration in
                try await ForeignImporter.store(
                    check, from: source, path: path, options: importOptions, into: administration.repository,
                    merge: merge, idMap: mapFile.map { file in { try file.write(Self.idMapLine($0)) } },
                    progress: progress)
            }
        }
        try mapFile?.commit()
        return reply
    }

    /// One line of `--id-map`.
    static func idMapLine(_ entry: IDMapEntry) -> String {
        JSONValue.object([
            ("source_id", entry.sourceID.map(JSONValue.string) ?? .null), ("email", .string(entry.email)),
            ("id", .string(entry.id.rawValue)), ("number", .int(Int64(entry.number))),
        ]).serialized()
    }

    /// Verifies the password on standard input against the file's hash for `email`, as a login
    /// would after the import; nothing is written when it does not.
    private func verifyLogin(
        _ email: String, against check: ImportCheck, context: CommandContext, name: String
    ) throws -> String {
        let key = try StoredEmail(email).normalized
        guard let hash = check.checkLoginHash else { throw AccountNotFound(email: key) }
        let password = try context.passwordReader(fromStandardInput: true)
            .read(context.messages.passwordPrompt, what: "password")
        let hasher = PasswordSchemes.standard(current: context.settings.hasher, limits: context.settings.legacyLimits)
        guard hasher.verify(typed: password, against: hash) else {
            throw LoginCheckFailed(
                email: key, file: name, firebase: from == FirebaseSource.name, devise: from == DeviseSource.name)
        }
        return context.messages.loginCheckPassed(key)
    }

    /// The dry run's report, or the refused records written and `load` run with a progress line.
    private func finish(
        _ context: CommandContext, refused: [RefusedRecord], wouldImport: Int, schemes: [String: Int],
        notes: [String] = [], stateFields: [(String, Int)] = [],
        load: (_ progress: @escaping (Int) -> Void) async throws -> ImportReport
    ) async throws -> CommandReply {
        let refusedLines = refused.map(context.messages.refused)
        let schemeLines = (schemes.isEmpty ? [] : [context.messages.schemeCounts(schemes)]) + notes
        let states =
            stateFields.isEmpty
            ? [] : [("account_states", JSONValue.object(stateFields.map { ($0.0, .int(Int64($0.1))) }))]
        let schemeFields = JSONValue.object(schemes.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })
        let refusedField = JSONValue.array(
            refused.map {
                .object([
                    ("source", .string($0.source)), ("source_id", $0.sourceID.map(JSONValue.string) ?? .null),
                    ("email", .string($0.user.email)), ("reasons", .array($0.reasons.map { .string($0.english) })),
                ])
            })
        if dryRun {
            return CommandReply(
                lines: refusedLines + schemeLines
                    + [context.messages.wouldImport(users: wouldImport, refused: refused.count)],
                fields: [
                    ("dry_run", .bool(true)), ("would_import", .int(Int64(wouldImport))),
                    ("refused", refusedField), ("password_schemes", schemeFields),
                ] + states)
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
                + (report.resumed ? [context.messages.resumed(alreadyImported: report.alreadyImported)] : [])
                + [context.messages.imported(users: report.imported, sessions: report.sessions)]
                + report.conflicts.map(context.messages.importConflict)
                + (report.renumbered > 0 ? [context.messages.renumbered(report.renumbered)] : [])
                + (written.map { [$0] } ?? []),
            fields: [
                ("imported", .int(Int64(report.imported))), ("sessions", .int(Int64(report.sessions))),
                ("renumbered", .int(Int64(report.renumbered))), ("resumed", .bool(report.resumed)),
                ("already_imported", .int(Int64(report.alreadyImported))),
                ("conflicts", .array(report.conflicts.map(JSONValue.string))), ("refused", refusedField),
                ("password_schemes", schemeFields),
            ] + states)
    }
}
