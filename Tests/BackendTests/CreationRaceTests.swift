import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// Several processes creating one store at once: every one succeeds and they share one store
/// (an LMDB store being created by another process was once taken for a foreign environment).
@Suite("Creation race")
struct CreationRaceTests {
    @Test("8 sign-up processes on a brand-new store all succeed", arguments: BackendRegistry.embedded.descriptors)
    func concurrentFirstOpens(_ backend: any BackendDescriptor) async throws {
        for round in 1...3 {
            let cli = try CLIRunner("create-race-\(backend.name)-\(round)")
            let store = cli.root + "/new." + backend.name
            var processes: [ChildProcess] = []
            for n in 1...8 {
                let script = """
                    printf '%s\\n%s\\n' "$PW" "$PW" | "$ACCOUNTS" signup --backend \(backend.name) --store "$STORE" \
                      --email racer\(n)abc@example.com --nickname 'racer \(n)' --password-stdin \
                      --session-file "$ROOT/s\(n)" >/dev/null
                    """
                processes.append(
                    try ChildProcess(
                        "/bin/sh", ["-c", script],
                        environment: cli.environment.merging([
                            "PW": "Tangerine-Kayak-42", "ACCOUNTS": CLIRunner.executable, "STORE": store,
                            "ROOT": cli.root,
                        ]) { $1 }))
            }
            for (n, process) in processes.enumerated() {
                let result = try await process.finish()
                #expect(result.status == 0, "round \(round), process \(n + 1): \(result.standardError)")
            }
            let count = try await cli.run(["users", "count", "--backend", backend.name, "--store", store])
            #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "8", "round \(round)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.root).filter {
                $0.contains(".init-")
            }
            #expect(leftovers.isEmpty, "creation left \(leftovers)")
        }
    }
}
