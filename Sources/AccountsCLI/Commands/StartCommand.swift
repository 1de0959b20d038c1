import AccountCore
import AccountJSON
import ArgumentParser

/// The start screen: members are welcomed, guests are told how to sign up.
struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Show the start screen: a welcome for a signed-in member, sign-up help for a guest.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let screen: StartScreen
            do {
                screen = try await context.withSession { service, session in
                    let screen = try await service.sessions.start(token: session.token)
                    // A token the store no longer honours is stale: forget it (this store's only)
                    // so the next run is clean.
                    if case .guest = screen, session.token != nil { try session.forget() }
                    return screen
                }
            } catch AccountError.storeNotFound where !context.hasSavedSessions {
                // No store yet and no session saved (a fresh machine, a server schema not made
                // yet): a guest, and nothing is created.
                screen = .guest(sessionExpired: false)
            }
            switch screen {
            case .member(let profile):
                return CommandReply(
                    lines: [context.messages.welcome(profile)],
                    fields: [
                        ("screen", .string("welcome")), ("user", CommandContext.json(profile)),
                        ("message", .string(context.messages.welcome(profile))),
                    ])
            case .guest(let expired):
                let lines = context.messages.guest(expired: expired)
                return CommandReply(
                    lines: lines,
                    fields: [
                        ("screen", .string("signup")), ("session_expired", .bool(expired)),
                        ("message", .string(lines.joined(separator: "\n"))),
                    ])
            }
        }
    }
}
