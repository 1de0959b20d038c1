import AccountCore
import ArgumentParser

/// Show the signed-in user.
struct WhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who is signed in.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            guard let token = try context.sessionFile.read() else { throw AccountError.notSignedIn }
            let profile = try await context.withService { try await $0.whoami(token: token) }
            return CommandReply(
                lines: context.messages.profile(profile), fields: [("user", CommandContext.json(profile))])
        }
    }
}
