import AccountCore
import AccountJSON
import AccountOperations
import ArgumentParser

/// Operator commands over the configured store. They never print password hashes or tokens.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Inspect the accounts in the store (no hashes, no tokens).",
        subcommands: [Count.self, List.self, Show.self])

    struct Count: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count", abstract: "Print how many accounts the store holds.")
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await CommandContext.run(options) { context in
                let count = try await context.withAdministration(reading: true) { try await $0.userCount() }
                return CommandReply(lines: [String(count)], fields: [("count", .int(Int64(count)))])
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List accounts in email order, a page at a time.")
        // `.unconditional`, so that `--limit -1` is read as a value (and refused as out of range)
        // rather than as an unknown option.
        @Option(parsing: .unconditional, help: "At most this many accounts (1 to 100000).") var limit = 100
        @Option(
            help: "Start after this email (the last one of the previous page).",
            completion: StoredEmailCompletion.kind)
        var after: String?
        @OptionGroup var options: StoreOptions

        func validate() throws {
            guard (1...100_000).contains(limit) else {
                throw ValidationError("--limit \(limit) is out of range: it must be from 1 to 100000")
            }
        }

        func run() async throws {
            try await CommandContext.run(options) { context in
                let users = try await context.withAdministration(reading: true) {
                    try await $0.accounts(after: after, limit: limit)
                }
                // Each field escaped whole, so a tab or line break in one cannot forge a column or row.
                let lines = users.map {
                    [$0.email, $0.nickname, $0.id.rawValue].map { VisibleText.escaping($0) }.joined(separator: "\t")
                }
                var fields: [(String, JSONValue)] = [("users", .array(users.map(CommandContext.json)))]
                if users.count == limit, let last = users.last { fields.append(("next_after", .string(last.email))) }
                return CommandReply(lines: lines, fields: fields)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one account: profile, sessions, failed logins.")
        @Argument(help: "The account's email (any spelling of the domain).", completion: StoredEmailCompletion.kind)
        var email: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await CommandContext.run(options) { context in
                let key = try StoredEmail(email).normalized
                guard
                    let account = try await context.withAdministration(
                        reading: true, { try await $0.account(email: key) })
                else {
                    throw AccountNotFound(email: key)
                }
                return CommandReply(
                    lines: context.messages.accountDetails(account),
                    fields: [
                        ("user", CommandContext.json(account.profile)),
                        ("password_changed_at_ms", .int(account.passwordChangedAt.millisecondsSince1970)),
                        ("password_scheme", .string(account.passwordScheme)),
                        ("failed_login_count", .int(Int64(account.failedLoginCount))),
                        ("sessions", .int(Int64(account.sessionCount))),
                    ])
            }
        }
    }
}
