// accounts-bench: the measurements that must never be timed tests. See BenchOptions.usage and
// `make bench`, which runs it next to the raw-engine reference in bench/raw.
import AccountCore
import AccountCrypto
import BackendRegistry
import Foundation

let options = BenchOptions(Array(CommandLine.arguments.dropFirst()))
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-bench-\(UUID().uuidString)").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

switch options.command {
case "workload":
    let backend = try BackendRegistry.standard.descriptor(named: options.backend)
    var values = backend.defaultValues
    let modeOption = backend.options.first { $0.name == "synchronous" || $0.name == "sync" }
    if let mode = options.mode, let modeOption { values[modeOption.name] = .word(mode) }
    let mode = modeOption.flatMap { values[$0.name]?.description } ?? "default"
    let runner = WorkloadRunner(backend: backend, mode: mode, values: values, n: options.n, folder: folder)
    let results = try await runner.run(phases: options.phases)
    if options.json {
        print("{\"results\":[" + results.map { $0.jsonObject() }.joined(separator: ",") + "]}")
    } else {
        for result in results { print(result.resultLine()) }
    }
case "hash":
    let hasher = Argon2idPasswordHasher(opsLimit: UInt64(options.opsLimit), memLimitBytes: options.memLimitKiB * 1024)
    let clock = ContinuousClock()
    var latencies: [Double] = []
    let start = clock.now
    for _ in 0..<options.iterations {
        let begin = clock.now
        _ = try hasher.hash("Tangerine-Kayak-42")
        latencies.append(WorkloadRunner.microseconds(clock.now - begin))
    }
    let result = PhaseResult(
        phase: "hash", backend: "argon2id", mode: "t=\(options.opsLimit),m=\(options.memLimitKiB)KiB",
        n: options.iterations, latenciesMicroseconds: latencies,
        seconds: WorkloadRunner.microseconds(clock.now - start) / 1e6)
    print(options.json ? result.jsonObject() : result.resultLine())
case "login-timing":
    try await LoginTiming.run(options, folder: folder)
default:
    BenchOptions.fail(BenchOptions.usage)
}
