import AccountBackendKit
import AccountConformance
import AccountCore
import AccountCrypto
import Foundation

/// The median time of a login with an unknown email against one with a wrong password,
/// interleaved, at the default Argon2id parameters. They should be within 10%: the unknown
/// path verifies a dummy hash so that timing does not tell whether an account exists.
enum LoginTiming {
    static func run(
        _ options: BenchOptions, folder: String, backends: BackendRegistry, fixtures: BackendFixtureSet
    ) async throws {
        let backend = try backends.descriptor(named: options.backend ?? backends.defaultBackendName)
        let scratch = BackendConfiguration(
            location: fixtures.scratchLocation(of: backend, for: folder + "/" + backend.defaultStoreName),
            values: backend.defaultValues)
        let store = try await ConfiguredBackend(backend, scratch, in: backends).open(creating: true)
        let service = AccountService(
            repository: store, hasher: Argon2idPasswordHasher.recommended, strength: ZxcvbnStrengthEstimator(),
            digester: SHA256TokenDigester(), random: SodiumRandomSource(),
            // No throttling: a throttled attempt skips verification and would skew the wrong-password side.
            throttlePolicy: LoginThrottlePolicy(backoff: ThrottlePolicy(freeAttempts: Int.max / 2)))
        _ = try await service.signUp(
            email: "leesoon7@example.com", password: "Tangerine-Kayak-42", confirmation: "Tangerine-Kayak-42",
            nickname: "이순신")
        var unknown: [Double] = []
        var wrong: [Double] = []
        let clock = ContinuousClock()
        for round in 0..<options.iterations {
            // Alternate which goes first, so drift on a shared machine hits both alike.
            for side in round.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                let email = side == 0 ? "nobody99@example.com" : "leesoon7@example.com"
                let start = clock.now
                _ = try? await service.login(email: email, password: "Wrong-Kayak-42", remember: false)
                let elapsed = WorkloadRunner.microseconds(clock.now - start)
                if side == 0 { unknown.append(elapsed) } else { wrong.append(elapsed) }
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
                    format: "  ratio unknown/wrong     %.3f  (%@ 10%%)", ratio,
                    abs(ratio - 1) <= 0.10 ? "within" : "NOT within"))
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count.isMultiple(of: 2)
            ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
    }
}
