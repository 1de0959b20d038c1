public import AccountBackendKit
public import AccountConformance
import AccountCore
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `accounts` entry point: parses, runs, and turns every outcome into a stable exit status.
public enum AccountsMain {
    /// Runs the whole `accounts` CLI with `arguments` (without the program name) over
    /// `backends`; returns the exit status. `fixtures` are what `accounts verify` plants for
    /// them (without a backend's, its stores are files and the check that plants a newer store
    /// fails, saying so). An executable exits with ``runAndExit(_:backends:fixtures:)`` instead.
    public static func run(
        _ arguments: [String], backends: BackendRegistry, fixtures: BackendFixtureSet = []
    ) async -> Int32 {
        // The process's own arguments carry raw bytes to check; strings an embedding program
        // built have none.
        let broken =
            arguments == Array(CommandLine.arguments.dropFirst()) ? BrokenArguments.inProcessArguments() : []
        return await CLIBackends.$registry.withValue(backends) {
            await CLIBackends.$fixtures.withValue(fixtures) {
                await BrokenArguments.$found.withValue(broken) { await run(arguments) }
            }
        }
    }

    /// Runs the CLI like ``run(_:backends:fixtures:)``, then exits the process with its status
    /// from the thread that finished the command. An executable that adds its own backend is:
    ///
    /// ```swift
    /// import AccountsCLI
    /// import StandardBackendFixtures
    /// import StandardBackends
    ///
    /// await AccountsMain.runAndExit(
    ///     Array(CommandLine.arguments.dropFirst()), backends: .standard.adding(MyBackendDescriptor()),
    ///     fixtures: .standard.adding(MyBackendFixtures()))
    /// ```
    ///
    /// Better than `exit(await run(…))` in top-level code, which belongs to the main actor:
    /// going back to it only to exit starts one more thread (Dispatch serves the main queue from
    /// a thread of its own once `main` waits for tasks), a cost every call of the CLI would pay.
    public static func runAndExit(
        _ arguments: [String], backends: BackendRegistry, fixtures: BackendFixtureSet = []
    ) async -> Never {
        exit(await run(arguments, backends: backends, fixtures: fixtures))
    }

    private static func run(_ arguments: [String]) async -> Int32 {
        do {
            // A shell asking for the values of an argument whose completion is async (the
            // emails of `users show`) gets them only from the async parse; every other command
            // line takes the sync one, as before.
            var command =
                arguments.first == "---completion"
                ? try await AccountsCommand.asyncParseAsRoot(arguments)
                : try AccountsCommand.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ExitStatus.success
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            // Parsing errors, help and version requests.
            let status = AccountsCommand.exitCode(for: error)
            if status == .success {
                print(AccountsCommand.fullMessage(for: error))
                return ExitStatus.success
            }
            let language = Self.language(arguments)
            let mistake = UsageMistake(error, arguments: arguments, language: language)
            let printer = ReplyPrinter(json: arguments.contains("--json"), language: language)
            printer.print(mistake)
            return ExitStatus.usage
        }
    }

    /// The language for a command line that did not parse: its `--lang`, else the locale's.
    private static func language(_ arguments: [String]) -> Language {
        for (index, argument) in arguments.enumerated() {
            let value = argument.hasPrefix("--lang=") ? String(argument.dropFirst(7)) : nil
            if let value = value ?? (argument == "--lang" && index + 1 < arguments.count ? arguments[index + 1] : nil),
                let option = LanguageOption(rawValue: value)
            {
                return option.language
            }
        }
        return Language.fromLocale(environment: ProcessInfo.processInfo.environment)
    }
}

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        // write(2) rather than the `stderr` global, which strict concurrency rejects.
        let bytes = Array(string.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }
}
