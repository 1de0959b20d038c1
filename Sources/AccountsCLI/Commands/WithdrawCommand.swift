import AccountCore
import AccountJSON
import ArgumentParser

/// Delete the signed-in account and all its sessions, after a confirmation and the password.
struct WithdrawCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "withdraw", abstract: "Delete your account (asks for confirmation and your password).")

    @Flag(help: "Do not ask for confirmation (required when there is no terminal).")
    var yes = false

    @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            return try await context.withSession { service, session in
                guard let token = session.token else { throw session.notSignedIn() }
                let profile = try await service.sessions.whoami(token: token, touching: false)
                let reader = context.passwordReader(fromStandardInput: passwordStdin)
                if !yes && !TerminalPrompt.isAvailable {
                    // Asking is impossible, and the password alone is not a confirmation.
                    let message = context.messages.withdrawNeedsConfirmation
                    return CommandReply(
                        lines: [message], fields: [("withdrawn", .bool(false))], exitStatus: ExitStatus.usage,
                        jsonError: ("cancelled", message))
                }
                if !yes, try !reader.confirm(context.messages.withdrawConfirmation(profile.email)) {
                    return CommandReply(
                        lines: [context.messages.withdrawCancelled], fields: [("withdrawn", .bool(false))],
                        exitStatus: ExitStatus.usage, jsonError: ("cancelled", context.messages.withdrawCancelled))
                }
                let password = try reader.read(context.messages.passwordPrompt, what: "password")
                try await service.withdraw(token: token, password: password)
                let warning = context.forgetRevokedSession(session)
                let done = context.messages.withdrawn(profile.email)
                return CommandReply(
                    lines: [done], fields: [("withdrawn", .bool(true)), ("message", .string(done))], warning: warning)
            }
        }
    }
}
