import AccountBackendKit
import AccountConformance
import AccountCore
import AccountJSON
import AccountSettings
import ArgumentParser
import DurableFiles
import Foundation

/// Run the conformance suite against a scratch store of the chosen backend.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Run the conformance suite against a scratch store of the backend (never the configured store).")

    @OptionGroup var options: StorelessOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let backend = context.settings.backend.descriptor
            // The configured section's settings (how to reach a server, sync modes), scratch stores.
            let values = context.settings.backend.configuration.values
            // The multi-process checks start this very program (`accounts signup`) on scratch stores.
            let scratch = try StagedFolder()
            let subject = ConformanceSubject(
                backend, fixtures: CLIBackends.fixtures, values: values, registry: context.backends,
                processes: .accounts(
                    executable: "/proc/self/exe", backend: backend.name,
                    arguments: try Self.configForChildren(context.settings, in: scratch.path).map { ["--config", $0] }
                        ?? [],
                    environment: ProcessInfo.processInfo.environment, scratch: scratch.path))
            try await ConformanceSuite.probe(subject)
            let outcomes = await ConformanceSuite.runAll(on: subject)
            let failed = outcomes.filter { $0.failure != nil }
            let skipped = outcomes.filter { $0.skippedFor != nil }
            var lines = outcomes.map { outcome in
                if let skipped = outcome.skipped {
                    if skipped.storesNotInFiles { return context.messages.verifySkippedNotFiles(outcome.check) }
                    if skipped.missing.isEmpty { return context.messages.verifySkippedNoCutOff(outcome.check) }
                    return context.messages.verifySkipped(outcome.check, missing: skipped.missing.description)
                }
                return outcome.failure.map { "FAIL  \(outcome.check): \($0)" } ?? "PASS  \(outcome.check)"
            }
            let ran = outcomes.count - skipped.count
            let summary = context.messages.verifySummary(
                backend.name, passed: ran - failed.count, ran: ran, skipped: skipped.count)
            lines.append(summary)
            let checks = outcomes.map { outcome in
                JSONValue.object(
                    [
                        ("name", .string(outcome.check)),
                        ("passed", .bool(outcome.failure == nil && outcome.skippedFor == nil)),
                    ]
                        + (outcome.failure.map { [("failure", JSONValue.string($0))] } ?? [])
                        + (outcome.skippedFor.map { [("skipped_missing", .array($0.names.map(JSONValue.string)))] }
                            ?? [])
                        + (Self.skipReason(outcome.skipped).map { [("skipped_reason", JSONValue.string($0))] } ?? []))
            }
            return CommandReply(
                lines: lines, fields: [("backend", .string(backend.name)), ("checks", .array(checks))],
                exitStatus: failed.isEmpty ? ExitStatus.success : ExitStatus.checksFailed,
                jsonError: failed.isEmpty ? nil : ("checks_failed", summary))
        }
    }

    /// The reason code `--json` gives a check skipped for something other than a capability.
    static func skipReason(_ skipped: ConformanceSkipped?) -> String? {
        if skipped?.storesNotInFiles == true { return "stores_not_in_files" }
        return skipped?.cannotCutOff == true ? "cannot_cut_off" : nil
    }

    /// The config file the checks' other processes read: the one given, or, when that was a
    /// pipe (`--config <(…)`, drained by this process), a copy of its text in `folder`.
    static func configForChildren(_ settings: AccountSettings, in folder: String) throws -> String? {
        guard let file = settings.configFile else { return nil }
        if StoreFile.isRegularFile(file) { return file }
        // An empty pipe set nothing, so the children need no config either.
        guard let text = settings.configFileText else { return nil }
        let copy = folder + "/config.yaml"
        _ = try StoreFile.replace(copy, with: Array(text.utf8))
        return copy
    }
}
