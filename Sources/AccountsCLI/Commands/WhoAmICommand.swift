import AccountCore
import ArgumentParser

/// Show the signed-in user.
struct WhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who is signed in.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let profile: AccountProfile
            do {
                profile = try await context.withSession { service, session in
                    guard let token = session.token else { throw session.notSignedIn() }
                    return try await service.sessions.whoami(token: token)
                }
            } catch AccountError.storeNotFound where !context.hasSavedSessions {
                throw AccountError.notSignedIn
            }
            return CommandReply(
                lines: context.messages.profile(profile), fields: [("user", CommandContext.json(profile))])
        }
    }
}
