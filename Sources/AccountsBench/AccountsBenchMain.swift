public import AccountBackendKit
public import AccountConformance
import AccountCore
import AccountCrypto
import AccountSettings
import Foundation
import Synchronization

/// `accounts-bench`: the measurements that must never be timed tests (see `BenchOptions.usage`
/// and `make bench`, which runs it next to the raw-engine reference in `bench/raw`). A library,
/// so that an executable with its own backends can measure them the same way.
public enum AccountsBenchMain {
    /// Runs the bench with `arguments` (without the program name) over `backends`, whose scratch
    /// stores `fixtures` place (a server backend's in schemas of their own); returns the exit
    /// status. Argument mistakes print usage and exit the process with status 2.
    public static func run(_ arguments: [String], backends: BackendRegistry, fixtures: BackendFixtureSet) async
        -> Int32
    {
        let options = BenchOptions(arguments)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accounts-bench-\(UUID().uuidString)"
        ).path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try await Bench(options: options, folder: folder, backends: backends, fixtures: fixtures).run()
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            BenchOptions.fail("\(error)")
        }
        try? FileManager.default.removeItem(atPath: folder)
        return 0
    }
}

/// One run of the bench: its arguments, its scratch folder and the backends it may measure.
struct Bench {
    let options: BenchOptions
    let folder: String
    let backends: BackendRegistry
    /// The backends' fixtures: where scratch stores go, and how to remove them.
    let fixtures: BackendFixtureSet

    /// Argon2id at the configured parameters (or `--ops`, `--mem-kib`), `options.iterations` times
    /// on each of `options.threads` threads at once; `seconds` is the wall time of them all, so
    /// ops ÷ seconds is the hashes per second the machine reaches with that many.
    func hashPhase() async throws -> PhaseResult {
        let settings = try await BenchSettings.load(options, scratchFolder: folder, backends: backends)
        let opsLimit = options.opsLimit ?? Int(settings.hasher.opsLimit)
        let memLimitKiB = options.memLimitKiB ?? settings.hasher.memLimitBytes / 1_024
        let hasher = Argon2idPasswordHasher(opsLimit: UInt64(opsLimit), memLimitBytes: memLimitKiB * 1024)
        let iterations = options.iterations
        let latencies = Mutex<[Double]>([])
        let failure = Mutex<(any Error)?>(nil)
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: options.threads) { _ in
            var mine: [Double] = []
            do {
                for _ in 0..<iterations {
                    let begin = clock.now
                    _ = try hasher.hash("Tangerine-Kayak-42")
                    mine.append(WorkloadRunner.microseconds(clock.now - begin))
                }
            } catch {
                failure.withLock { $0 = error }
            }
            latencies.withLock { $0 += mine }
        }
        let seconds = WorkloadRunner.microseconds(clock.now - start) / 1e6
        if let error = failure.withLock({ $0 }) { throw error }
        let threads = options.threads == 1 ? "" : ",threads=\(options.threads)"
        return PhaseResult(
            phase: "hash", backend: "argon2id", mode: "t=\(opsLimit),m=\(memLimitKiB)KiB\(threads)",
            n: iterations * options.threads, latenciesMicroseconds: latencies.withLock { $0 }, seconds: seconds)
    }

    func printResults(_ results: [PhaseResult]) {
        if options.json {
            print("{\"results\":[" + results.map { $0.jsonObject() }.joined(separator: ",") + "]}")
        } else {
            print(PhaseResult.header)
            for result in results { print(result.resultLine()) }
        }
    }

    func run() async throws {
        switch options.command {
        case "hash":
            let result = try await hashPhase()
            print(options.json ? result.jsonObject() : PhaseResult.header + "\n" + result.resultLine())
        case "workload" where options.phases == ["hash"]:
            printResults([try await hashPhase()])
        case "workload":
            let settings = try await BenchSettings.load(options, scratchFolder: folder, backends: backends)
            let backend = settings.backend.descriptor
            var values = settings.backend.configuration.values
            let modeOption = backend.options.first { $0.name == "synchronous" || $0.name == "sync" }
            if let mode = options.mode {
                var modes: [String] = []
                if let modeOption, case .choice(let choices) = modeOption.kind { modes = choices }
                guard let modeOption, modes.contains(mode) else {
                    throw BenchOptions.UsageError(
                        modes.isEmpty
                            ? "--mode sets a backend's sync or synchronous setting; \(backend.name) has none"
                            : "\(backend.name) has no mode '\(mode)' (\(modes.joined(separator: ", ")))")
                }
                values[modeOption.name] = .word(mode)
            }
            let mode = modeOption.flatMap { values[$0.name]?.description } ?? "default"
            let backendFixtures = fixtures.fixtures(for: backend.name)
            let runner = WorkloadRunner(
                backend: backend, fixtures: backendFixtures, mode: mode, values: values, n: options.n, folder: folder)
            let results: [PhaseResult]
            do {
                results = try await runner.run(phases: options.phases)
            } catch {
                await backendFixtures?.storeFixtures(values: values)?.cleanUp(folder)
                throw error
            }
            // Scratch schemas (PostgreSQL) are dropped; scratch files go with the folder.
            await backendFixtures?.storeFixtures(values: values)?.cleanUp(folder)
            printResults(results)
        case "login-timing":
            try await LoginTiming.run(options, folder: folder, backends: backends, fixtures: fixtures)
        #if Server
            case "serve-baseline":
                try await BaselineServer.run(port: options.port)
        #endif
        #if Server && PostgreSQL
            case "serve-raw-postgres":
                try await RawPostgresServer.run(port: options.port)
        #endif
        default:
            throw BenchOptions.UsageError(BenchOptions.usage)
        }
    }
}
