import AccountCore
import AccountJSON
import ArgumentParser

/// Where the signed-in user is signed in, and signing one of those sessions out (or every
/// other one). Never prints a token or a token's hash: a session is named by its public id.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "List where you are signed in, or sign a device out.",
        subcommands: [List.self, Revoke.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the signed-in user's sessions: id, device, when opened and last used.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await CommandContext.run(options) { context in
                let sessions = try await context.withSession { service, session in
                    guard let token = session.token else { throw session.notSignedIn() }
                    return try await service.sessions.list(token: token)
                }
                return CommandReply(
                    lines: sessions.map(context.messages.session),
                    fields: [("sessions", .array(sessions.map(Self.json)))])
            }
        }

        static func json(_ session: SessionSummary) -> JSONValue {
            .object([
                ("id", .string(session.id)), ("device", .string(session.device)),
                ("created_at_ms", .int(session.createdAt.millisecondsSince1970)),
                ("last_used_at_ms", .int(session.lastUsedAt.millisecondsSince1970)),
                ("expires_at_ms", .int(session.expiresAt.millisecondsSince1970)), ("current", .bool(session.current)),
            ])
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Sign out one session by its id, or every other one with --others.")
        @Argument(help: "The session's id, as `accounts sessions` lists it.") var id: String?
        @Flag(help: "Sign out every session but this one.") var others = false
        @OptionGroup var options: GlobalOptions

        func validate() throws {
            switch (id, others) {
            case (nil, false): throw ValidationError("name a session id, or pass --others")
            case (_?, true): throw ValidationError("give a session id or --others, not both")
            default: break
            }
        }

        func run() async throws {
            try await CommandContext.run(options) { context in
                let revoked = try await context.withSession { service, session -> Int in
                    guard let token = session.token else { throw session.notSignedIn() }
                    guard let id else { return try await service.sessions.revokeOtherSessions(token: token) }
                    try await service.sessions.revokeSession(token: token, id: id)
                    return 1
                }
                let message = context.messages.sessionsRevoked(revoked)
                return CommandReply(
                    lines: [message], fields: [("message", .string(message)), ("revoked", .int(Int64(revoked)))])
            }
        }
    }
}
