public import AccountBackendKit
import AccountCore
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// The shared suite every backend must pass, as data: the test target runs each check against
/// each registered backend, and `accounts verify` runs them against a scratch store.
public enum ConformanceSuite {
    /// Every check, in a stable order.
    public static let checks: [ConformanceCheck] =
        RecordChecks.all + ConcurrencyChecks.all + SessionChecks.all + PersistenceChecks.all + StoreFileChecks.all
        + SequenceChecks.all + BoundaryChecks.all + RaceChecks.all + NumberChecks.all + OutageChecks.all
        + StateChecks.all + FlowChecks.all

    /// The check with this name.
    public static func check(named name: String) -> ConformanceCheck? {
        checks.first { $0.name == name }
    }

    /// Runs one check against `subject` in a fresh scratch folder, removed afterwards.
    /// - Throws: ``ConformanceSkipped`` when the backend lacks a capability the check needs, or
    ///   the check is about store files and its stores are not files; otherwise the check's
    ///   failure.
    public static func run(_ check: ConformanceCheck, on subject: ConformanceSubject) async throws {
        if let skip = subject.skip(for: check) { throw skip }
        let directory = try makeScratchDirectory(for: subject.backendName)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try await check.run(ConformanceContext(subject: subject, directory: directory))
        } catch {
            await subject.storeFixtures.cleanUp(directory)
            throw error
        }
        await subject.storeFixtures.cleanUp(directory)
    }

    /// Opens (and closes) one scratch store, so that a store that cannot be reached at all (a
    /// server that is down, a folder that cannot be written) is one typed error instead of the
    /// same failure once per check.
    /// - Throws: the `AccountError` the backend gave.
    public static func probe(_ subject: ConformanceSubject) async throws {
        let directory = try makeScratchDirectory(for: subject.backendName)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try await subject.open(directory + "/" + subject.storeFileName)
            try await store.close()
        } catch {
            await subject.storeFixtures.cleanUp(directory)
            throw error
        }
        await subject.storeFixtures.cleanUp(directory)
    }

    /// The outcome of one check in `runAll`.
    public struct Outcome: Sendable {
        /// The check's name.
        public let check: String
        /// `nil` when it passed or was skipped; else what failed.
        public let failure: String?
        /// Why the check was skipped; `nil` when it ran.
        public let skipped: ConformanceSkipped?
        /// What the backend lacks when the check was skipped (empty when it was skipped because
        /// the backend's stores are not files); `nil` when it ran.
        public var skippedFor: BackendCapabilities? { skipped?.missing }
    }

    /// Runs every check against `subject`, one after another, and reports each.
    public static func runAll(on subject: ConformanceSubject) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for check in checks {
            do {
                try await run(check, on: subject)
                outcomes.append(Outcome(check: check.name, failure: nil, skipped: nil))
            } catch let skipped as ConformanceSkipped {
                outcomes.append(Outcome(check: check.name, failure: nil, skipped: skipped))
            } catch {
                outcomes.append(Outcome(check: check.name, failure: String(describing: error), skipped: nil))
            }
        }
        return outcomes
    }

    private static func makeScratchDirectory(for backend: String) throws -> String {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/accounts-conformance-\(backend)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ConformanceFailure("could not create a scratch folder under \(base)")
        }
        return String(cString: made)
    }
}
