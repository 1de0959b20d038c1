import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// A taken ID is refused by a read, so a duplicate sign-up never queues for the write lock
/// behind other processes' writes and fsyncs: while another process holds the lock,
/// `accounts signup` with a taken email still answers `email_taken` at once. A new email does
/// need the lock, which shows the lock really was held.
@Suite("Duplicate sign-up without the write lock")
struct DuplicateSignUpTests {
    static let password = "Tangerine-Kayak-42"
    /// timeout(1)'s bound for a run that has nothing to wait for, or a short wait of its own: it
    /// only keeps a hang from holding CI. 60 s was too short once, in CI, where these runs start
    /// beside the whole suite's processes on 2 cores and four of them were stopped at 60 s.
    static let noWaitBound = 300

    @Test(
        "a taken email is refused while another process holds the write lock",
        arguments: BackendRegistry.embedded.descriptors)
    func refusedWhileLocked(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("duplicate-locked-\(backend.name)")
        let store = cli.root + "/" + backend.defaultStoreName
        // A short wait for the lock where the backend has one (SQLite, JSON). LMDB's writers wait
        // without end, so every run is bounded by timeout(1) (exit 124 when it had to stop one).
        let timeouts = backend.options.filter { $0.name.hasSuffix("timeout_ms") }
        let shortWait = Dictionary(
            uniqueKeysWithValues: timeouts.map {
                ("ACCOUNTS_\(backend.name.uppercased())_\($0.name.uppercased())", "200")
            })
        func signUp(
            _ email: String, within seconds: Int, waitingForTheLock: [String: String] = shortWait
        ) async throws -> CLIRunner.Result {
            try await cli.run(
                [
                    "\(seconds)", CLIRunner.executable, "signup", "--backend", backend.name, "--store", store,
                    "--email", email, "--nickname", "이순신", "--password-stdin", "--json",
                ],
                stdin: [Self.password, Self.password], environment: waitingForTheLock, executable: "/usr/bin/timeout")
        }
        let first = try await signUp("leesoon7@example.com", within: Self.noWaitBound)
        try #require(first.status == 0, "\(first.stdout) \(first.stderr)")

        let holder = try ForeignWriter(backend: backend.name, storePath: store)
        defer { holder.release() }
        let duplicate = try await signUp("leesoon7@example.com", within: Self.noWaitBound)
        #expect(duplicate.status == 4, "\(duplicate.stdout) \(duplicate.stderr)")
        #expect(duplicate.errorCode == "email_taken", "\(duplicate.stdout)")

        // Where the backend's wait is bounded, timeout(1) must not cut the run short: on a loaded
        // machine start-up and the password's hash alone can take longer than a few seconds, and
        // a run stopped before it reached the lock would say nothing about the lock. Where it is
        // not (LMDB), the bound is what tells a wait from slowness, so it is well above the runs
        // seen here once the suite's first minute is over (about 1 s alone; over 3 s, once, with
        // the whole suite running in CI): a run stopped after 15 s was most likely waiting.
        let newcomer = try await signUp("newcomer7@example.com", within: timeouts.isEmpty ? 15 : Self.noWaitBound)
        let seen = "status \(newcomer.status): \(newcomer.stdout) \(newcomer.stderr)"
        if timeouts.isEmpty {
            #expect(newcomer.status == 124, "a new email waits for the held lock: \(seen)")
        } else {
            #expect(newcomer.errorCode == "store_busy", "a new email waits for the held lock: \(seen)")
        }
        holder.release()
        // The backend's own wait for the lock, not the short one: a child that another test
        // starts at this moment holds a copy of this process's descriptors, the released
        // lock's among them, until its exec closes it.
        let after = try await signUp("newcomer7@example.com", within: Self.noWaitBound, waitingForTheLock: [:])
        #expect(after.status == 0, "once the lock is free: \(after.stdout) \(after.stderr)")
        let count = try await cli.run(["users", "count", "--backend", backend.name, "--store", store])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    }
}
