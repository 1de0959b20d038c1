import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountJSON
import AccountOperations
import AccountSettings
import ArgumentParser
import DurableFiles
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// What a subcommand works with: the resolved settings, the language, the session file, and a
/// lazily opened store and service. `CommandContext.run` prints the reply or the error and sets
/// the exit status, the same way for every subcommand.
struct CommandContext {
    let options: any CommandOptions
    let language: Language
    let settings: AccountSettings
    let messages: CLIMessages

    /// The backends this CLI offers (the standard set, plus any an embedding executable added).
    var backends: BackendRegistry { CLIBackends.registry }

    var sessionFile: SessionTokenFile {
        SessionTokenFile(path: settings.sessionFile, mayCreateFolder: settings.sessionFileIsDefault)
    }

    /// Runs `body` with a context; prints its reply (or its error) as text or one JSON object.
    static func run(
        _ options: some CommandOptions, _ body: (CommandContext) async throws -> CommandReply
    ) async throws {
        try await run(options, describing: false) { context, _ in try await body(context) }
    }

    /// `run`, handing `body` also every setting with where it came from (`accounts config`),
    /// from the same single reading of the settings.
    static func runDescribing(
        _ options: some CommandOptions, _ body: (CommandContext, [EffectiveSetting]) async throws -> CommandReply
    ) async throws {
        try await run(options, describing: true, body)
    }

    private static func run(
        _ options: some CommandOptions, describing: Bool,
        _ body: (CommandContext, [EffectiveSetting]) async throws -> CommandReply
    ) async throws {
        let environment = ProcessInfo.processInfo.environment
        let language = Self.language(options, environment: environment)
        let printer = ReplyPrinter(json: options.base.json, language: language)
        do {
            try BrokenArguments.refuseAny()
            let (settings, effective) = try await Self.settings(
                options, environment: environment, describing: describing)
            let context = CommandContext(
                options: options, language: language, settings: settings, messages: CLIMessages(language: language))
            let reply = try await body(context, effective)
            printer.print(reply)
            if reply.exitStatus != ExitStatus.success { throw ExitCode(reply.exitStatus) }
        } catch let error as AccountError {
            printer.print(error)
            throw ExitCode(ExitStatus.forError(error))
        } catch let invalid as InvalidFields {
            printer.print(invalid)
            throw ExitCode(ExitStatus.forError(invalid.first))
        } catch let failure as any CommandFailure {
            printer.printFailure(code: failure.code, message: failure.message(language))
            throw ExitCode(failure.exitStatus)
        }
    }

    /// The context `run` would hand its body, for work that prints nothing of its own and whose
    /// failure the caller handles (tab completion, which must not write to the terminal).
    static func load(_ options: some CommandOptions) async throws -> CommandContext {
        let environment = ProcessInfo.processInfo.environment
        let language = Self.language(options, environment: environment)
        let settings = try await Self.settings(options, environment: environment, describing: false).settings
        return CommandContext(
            options: options, language: language, settings: settings, messages: CLIMessages(language: language))
    }

    private static func language(_ options: some CommandOptions, environment: [String: String]) -> Language {
        options.base.lang?.language ?? Language.fromLocale(environment: environment)
    }

    /// The settings from every layer, and with `describing` where each came from.
    private static func settings(
        _ options: some CommandOptions, environment: [String: String], describing: Bool
    ) async throws -> (settings: AccountSettings, effective: [EffectiveSetting]) {
        let (overrides, workingDirectory) = (options.settingsOverrides, FileManager.default.currentDirectoryPath)
        guard describing else {
            let settings = try await SettingsLoader.load(
                overrides: overrides, environment: environment, workingDirectory: workingDirectory,
                registry: CLIBackends.registry)
            return (settings, [])
        }
        return try await SettingsLoader.loadDescribed(
            overrides: overrides, environment: environment, workingDirectory: workingDirectory,
            registry: CLIBackends.registry)
    }

    /// Opens the configured store and runs `body` with it, closing it afterwards. Only a command
    /// that writes new accounts (sign-up, import, the app) passes `creating: true`; every other
    /// command reports a missing store as `store_not_found` and creates nothing. A command that
    /// only reads passes `reading: true`: it never upgrades a store of an older format (it is
    /// refused with `store_upgrade_needed`, unchanged); any other command upgrades it.
    func withStore<T>(
        creating: Bool = false, reading: Bool = false, _ body: (any UserRepository) async throws -> T
    ) async throws -> T {
        if creating && settings.storePathIsDefault {
            try Folders.create(StorePath.directory(of: settings.backend.location))
        }
        let repository = try await settings.backend.open(creating: creating, reading: reading)
        do {
            let result = try await body(repository)
            try await repository.close()
            return result
        } catch {
            try? await repository.close()
            throw error
        }
    }

    /// Opens the configured store and runs `body` with a service over it, closing it afterwards
    /// (`creating` as for `withStore`).
    func withService<T>(creating: Bool = false, _ body: (AccountService) async throws -> T) async throws -> T {
        try await withStore(creating: creating) { repository in try await body(settings.service(over: repository)) }
    }

    /// Opens the configured store and runs `body` with the operator's service over it, closing
    /// it afterwards (`creating` and `reading` as for `withStore`).
    func withAdministration<T>(
        creating: Bool = false, reading: Bool = false, _ body: (AccountAdministration) async throws -> T
    ) async throws -> T {
        try await withStore(creating: creating, reading: reading) { repository in
            try await body(AccountAdministration(repository: repository, legacyLimits: settings.legacyLimits))
        }
    }

    /// Opens the configured store and runs `body` with a service over it and the session saved
    /// for this store (`creating` as for `withStore`). Sessions saved for other stores are not
    /// read, replaced or removed by anything `body` does through the `StoreSession`.
    func withSession<T>(
        creating: Bool = false, _ body: (AccountService, StoreSession) async throws -> T
    ) async throws -> T {
        try await withService(creating: creating) { service in try await body(service, storeSession(service)) }
    }

    /// Whether any session is saved: a command that finds no store where it looks then reports
    /// the missing store (most likely a mistyped path), where with none it is simply not signed
    /// in (a fresh machine).
    var hasSavedSessions: Bool {
        !((try? sessionFile.sessions()) ?? []).isEmpty
    }

    private var location: String { settings.backend.location }

    /// The open store's entry in the session file. A token of the earlier file format (no store
    /// named) is this store's only when the store recognises it, as live or expired.
    func storeSession(_ service: AccountService) async throws -> StoreSession {
        let info = try await service.repository.storeInfo()
        let store = SessionStore(backend: settings.backend.name, location: location, storeID: info.storeID)
        let saved = try sessionFile.sessions()
        if let own = saved.first(where: { $0.store?.storeID == info.storeID }) {
            return StoreSession(file: sessionFile, store: store, token: own.token, claimed: nil)
        }
        for earlier in saved where earlier.store == nil {
            do {
                _ = try await service.sessions.whoami(token: earlier.token, touching: false)
            } catch AccountError.notSignedIn {
                continue
            } catch AccountError.sessionExpired {}
            return StoreSession(file: sessionFile, store: store, token: earlier.token, claimed: earlier.token)
        }
        return StoreSession(file: sessionFile, store: store, token: nil, claimed: nil)
    }

    /// Saves the token of a sign-up or login the store has committed as `session`'s store's,
    /// then revokes the session it replaces. When the file cannot be written, the new session
    /// is revoked (no one holds its token), the replaced one is kept, and `SessionNotSaved` says
    /// exactly what happened. Returns a warning when the replaced session could not be revoked:
    /// the command itself succeeded, so that is not its failure.
    func keepSession(
        _ signedIn: SignedInSession, in session: StoreSession, accountCreated: Bool, service: AccountService
    ) async throws -> String? {
        do {
            try session.save(signedIn.token)
        } catch let cause {
            let revoked = (try? await service.sessions.logout(token: signedIn.token)) != nil
            throw SessionNotSaved(
                email: signedIn.profile.email, accountCreated: accountCreated, revoked: revoked,
                expiresAt: signedIn.expiresAt, cause: cause)
        }
        do {
            try await service.sessions.revokeReplacedSession(session.token)
            return nil
        } catch let error as AccountError {
            return messages.replacedSessionNotRevoked(error.message(language))
        }
    }

    /// Forgets `session` once the store has revoked it (logout, withdrawal). Returns a warning
    /// when it cannot: the token is useless now, and the command's work in the store is done,
    /// so reporting the command as failed would be false.
    func forgetRevokedSession(_ session: StoreSession) -> String? {
        do {
            try session.forget()
            return nil
        } catch {
            return messages.sessionFileNotRemoved(sessionFile.path, error.message(language))
        }
    }

    func passwordReader(fromStandardInput: Bool) -> PasswordReader {
        PasswordReader(fromStandardInput: fromStandardInput, language: language)
    }

    /// The JSON form of a profile: never a hash or a token.
    static func json(_ profile: AccountProfile) -> JSONValue {
        .object([
            ("id", .string(profile.id.rawValue)),
            ("number", .int(Int64(profile.number))),
            ("email", .string(profile.email)),
            ("nickname", .string(profile.nickname)),
            ("created_at_ms", .int(profile.createdAt.millisecondsSince1970)),
        ])
    }
}
