import AccountCore
import AccountJSON
import AccountOperations
import ArgumentParser

/// Operator commands over the configured store. They never print password hashes or tokens.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Inspect the accounts in the store (no hashes, no tokens); block, unblock, mark an email proven.",
        subcommands: [Count.self, List.self, Show.self, Block.self, Unblock.self, Verify.self])

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
                        ("sessions", .int(Int64(account.sessionCount))), ("blocked", .bool(account.isBlocked)),
                        ("must_change_password", .bool(account.mustChangePassword)),
                        (
                            "email_verified_at_ms",
                            account.emailVerifiedAt.map { .int($0.millisecondsSince1970) } ?? .null
                        ),
                    ])
            }
        }
    }

    struct Block: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "block", abstract: "Block an account: it cannot sign in, and every session of it ends now.")
        @Argument(help: "The account's email (any spelling).", completion: StoredEmailCompletion.kind)
        var email: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await UsersCommand.change(options, email: email, field: "blocked") {
                (try await $0.block(email: email), $1.accountBlocked)
            }
        }
    }

    struct Unblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unblock", abstract: "Unblock an account: it can sign in again.")
        @Argument(help: "The account's email (any spelling).", completion: StoredEmailCompletion.kind)
        var email: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await UsersCommand.change(options, email: email, field: "unblocked") {
                (try await $0.unblock(email: email), $1.accountUnblocked)
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify", abstract: "Mark an account's email as proven (you checked it yourself).")
        @Argument(help: "The account's email (any spelling).", completion: StoredEmailCompletion.kind)
        var email: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await UsersCommand.change(options, email: email, field: "verified") {
                (try await $0.verifyEmail(email: email), $1.emailVerified)
            }
        }
    }

    /// Runs one change of an account, saying what it did (`changed` in `--json`) or that it
    /// was so already; no account with the email is `account_not_found` (exit 9).
    static func change(
        _ options: StoreOptions, email: String, field: String,
        _ body: @escaping (AccountAdministration, CLIMessages) async throws -> (Bool, (String, Bool) -> String)
    ) async throws {
        try await CommandContext.run(options) { context in
            do {
                let (changed, say) = try await context.withAdministration { try await body($0, context.messages) }
                let shown = (try? StoredEmail(email).normalized) ?? email
                return CommandReply(
                    lines: [say(shown, changed)], fields: [("email", .string(shown)), ("changed", .bool(changed))])
            } catch AccountOperationError.accountNotFound(let key) {
                throw AccountNotFound(email: key)
            }
        }
    }
}
