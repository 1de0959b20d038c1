import AccountConformance
import AccountCore
import ArgumentParser
import BackendRegistry
import StoreSupport

/// Run the conformance suite against a scratch store of the chosen backend.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Run the conformance suite against a scratch store of the backend (never the configured store).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let backend = try BackendRegistry.standard.descriptor(named: context.settings.backendName)
            // The configured section's settings (how to reach a server, sync modes), scratch stores.
            let values = context.settings.sections[backend.name]?.values ?? backend.defaultValues
            let outcomes = await ConformanceSuite.runAll(on: backend.conformanceSubject(values: values))
            let failed = outcomes.filter { $0.failure != nil }
            var lines = outcomes.map { outcome in
                outcome.failure.map { "FAIL  \(outcome.check): \($0)" } ?? "PASS  \(outcome.check)"
            }
            let summary = "verify \(backend.name): \(outcomes.count - failed.count) of \(outcomes.count) checks passed"
            lines.append(summary)
            let checks = outcomes.map { outcome in
                JSONValue.object(
                    [("name", .string(outcome.check)), ("passed", .bool(outcome.failure == nil))]
                        + (outcome.failure.map { [("failure", JSONValue.string($0))] } ?? []))
            }
            return CommandReply(
                lines: lines, fields: [("backend", .string(backend.name)), ("checks", .array(checks))],
                exitStatus: failed.isEmpty ? ExitStatus.success : ExitStatus.checksFailed,
                jsonError: failed.isEmpty ? nil : ("checks_failed", summary))
        }
    }
}
