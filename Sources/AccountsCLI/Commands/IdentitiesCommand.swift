import AccountCore
import AccountJSON
import ArgumentParser

/// The outside identities (GitHub, OpenID Connect providers) linked to the signed-in account,
/// and unlinking one (never the last way in).
struct IdentitiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identities", abstract: "List the providers linked to your account, or unlink one.",
        subcommands: [List.self, Unlink.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the identities linked to the signed-in account.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await CommandContext.run(options) { context in
                let identities = try await context.withSession { service, session in
                    guard let token = session.token else { throw session.notSignedIn() }
                    return try await service.identities.list(token: token)
                }
                return CommandReply(
                    lines: identities.isEmpty
                        ? [context.messages.noIdentities] : identities.map(context.messages.identity),
                    fields: [("identities", .array(identities.map(Self.json)))])
            }
        }

        static func json(_ identity: ProviderIdentity) -> JSONValue {
            .object([
                ("provider", .string(identity.provider)), ("subject", .string(identity.subject)),
                ("email", identity.email.map(JSONValue.string) ?? .null),
                ("linked_at_ms", .int(identity.linkedAt.millisecondsSince1970)),
            ])
        }
    }

    struct Unlink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlink",
            abstract: "Unlink one identity, unless it is the account's only way in.")
        @Argument(help: "The provider's name, as `accounts identities` lists it.") var provider: String
        @Argument(help: "The provider's id of the person, as `accounts identities` lists it.") var subject: String
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await CommandContext.run(options) { context in
                try await context.withSession { service, session in
                    guard let token = session.token else { throw session.notSignedIn() }
                    try await service.identities.unlink(provider: provider, subject: subject, token: token)
                }
                let message = context.messages.identityUnlinked(provider)
                return CommandReply(lines: [message], fields: [("message", .string(message))])
            }
        }
    }
}
