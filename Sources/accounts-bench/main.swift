// accounts-bench: measurements that must not be timed tests.
//
//   accounts-bench login-timing [--backend NAME] [--iterations N] [--json]
//
// login-timing: the median time of a login with an unknown email against one with a wrong
// password, interleaved, at the default Argon2id parameters. They should be within 10%: the
// unknown path verifies a dummy hash so that timing does not tell whether an account exists.
import AccountCore
import AccountCrypto
import BackendRegistry
import Foundation

struct Options {
    var phase = ""
    var backend = BackendRegistry.defaultBackendName
    var iterations = 41
    var json = false

    init(_ arguments: [String]) {
        var rest = arguments[...]
        phase = rest.popFirst() ?? ""
        while let argument = rest.popFirst() {
            switch argument {
            case "--backend": backend = rest.popFirst() ?? backend
            case "--iterations": iterations = Int(rest.popFirst() ?? "") ?? iterations
            case "--json": json = true
            default: fail("unknown argument \(argument)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("accounts-bench: \(message)\n".utf8))
    exit(2)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count.isMultiple(of: 2)
        ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
}

func measure(_ body: () async throws -> Void) async -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try? await body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard options.phase == "login-timing" else {
    fail("usage: accounts-bench login-timing [--backend NAME] [--iterations N] [--json]")
}

let backend = try BackendRegistry.standard.descriptor(named: options.backend)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-bench-\(UUID().uuidString)").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
let store = try await backend.open(
    BackendConfiguration(storePath: folder + "/" + backend.defaultStoreFileName, values: backend.defaultValues))
let service = AccountService(
    repository: store, hasher: Argon2idPasswordHasher.recommended, strength: ZxcvbnStrengthEstimator(),
    digester: SHA256TokenDigester(), random: SodiumRandomSource(),
    // No throttling here: a throttled attempt skips verification and would skew the wrong-password side.
    throttlePolicy: ThrottlePolicy(freeAttempts: Int.max / 2))
_ = try await service.signUp(
    email: "leesoon7@example.com", password: "Tangerine-Kayak-42", confirmation: "Tangerine-Kayak-42", nickname: "이순신")

var unknown: [Double] = []
var wrong: [Double] = []
for round in 0..<options.iterations {
    // Alternate which goes first, so drift on a shared machine hits both alike.
    let unknownFirst = round.isMultiple(of: 2)
    for side in unknownFirst ? [0, 1] : [1, 0] {
        if side == 0 {
            unknown.append(
                await measure {
                    _ = try await service.login(
                        email: "nobody99@example.com", password: "Wrong-Kayak-42", remember: false)
                })
        } else {
            wrong.append(
                await measure {
                    _ = try await service.login(
                        email: "leesoon7@example.com", password: "Wrong-Kayak-42", remember: false)
                })
        }
    }
}
try await store.close()
let unknownMedian = median(unknown)
let wrongMedian = median(wrong)
let ratio = unknownMedian / wrongMedian
if options.json {
    print(
        #"{"phase":"login-timing","backend":"\#(backend.name)","iterations":\#(options.iterations),"unknown_email_median_us":\#(Int(unknownMedian)),"wrong_password_median_us":\#(Int(wrongMedian)),"ratio":\#(String(format: "%.3f", ratio))}"#
    )
} else {
    print("login-timing on \(backend.name), Argon2id t=2 m=19 MiB, \(options.iterations) interleaved pairs")
    print(String(format: "  unknown email   median %8.0f us", unknownMedian))
    print(String(format: "  wrong password  median %8.0f us", wrongMedian))
    print(
        String(
            format: "  ratio unknown/wrong     %.3f  (%@ 10%%)", ratio, abs(ratio - 1) <= 0.10 ? "within" : "NOT within"
        ))
}
