import AccountConformance
import AccountCore
import ArgumentParser
import FileSupport
import Foundation

/// Run the conformance suite against a scratch store of the chosen backend.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Run the conformance suite against a scratch store of the backend (never the configured store).")

    @OptionGroup var options: StorelessOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let backend = try context.backends.descriptor(named: context.settings.backendName)
            // The configured section's settings (how to reach a server, sync modes), scratch stores.
            let values = context.settings.sections[backend.name]?.values ?? backend.defaultValues
            // The multi-process checks start this very program (`accounts signup`) on scratch stores.
            let scratch = try StagedFolder()
            let subject = ConformanceSubject(
                backend, values: values, registry: context.backends,
                processes: .accounts(
                    executable: "/proc/self/exe", backend: backend.name,
                    arguments: context.settings.configFile.map { ["--config", $0] } ?? [],
                    environment: ProcessInfo.processInfo.environment, scratch: scratch.path))
            try await ConformanceSuite.probe(subject)
            let outcomes = await ConformanceSuite.runAll(on: subject)
            let failed = outcomes.filter { $0.failure != nil }
            let skipped = outcomes.filter { $0.skippedFor != nil }
            var lines = outcomes.map { outcome in
                if let skipped = outcome.skipped {
                    return skipped.storesNotInFiles
                        ? context.messages.verifySkippedNotFiles(outcome.check)
                        : context.messages.verifySkipped(outcome.check, missing: skipped.missing.description)
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
                        + (outcome.skipped?.storesNotInFiles == true
                            ? [("skipped_reason", JSONValue.string("stores_not_in_files"))] : []))
            }
            return CommandReply(
                lines: lines, fields: [("backend", .string(backend.name)), ("checks", .array(checks))],
                exitStatus: failed.isEmpty ? ExitStatus.success : ExitStatus.checksFailed,
                jsonError: failed.isEmpty ? nil : ("checks_failed", summary))
        }
    }
}
