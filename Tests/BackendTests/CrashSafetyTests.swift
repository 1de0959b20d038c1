import AccountBackendKit
import AccountConformance
import AccountCore
import AccountTestSupport
import BackendTestSupport
import ChildProcesses
import DurableFiles
import Foundation
import StandardBackends
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A process signing up users is killed with SIGKILL at random moments; every sign-up it had
/// reported as done must survive, the store must open and pass its integrity check, and nothing
/// but the one in flight may appear besides.
@Suite("Crash safety")
struct CrashSafetyTests {
    static let rounds = 20

    static var tortureExecutable: String {
        (CLIRunner.executable as NSString).deletingLastPathComponent + "/accounts-torture"
    }

    @Test("SIGKILL at random moments loses no reported sign-up", arguments: BackendRegistry.embedded.descriptors)
    func killedWriter(_ backend: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("crash-\(backend.name)")
        let store = scratch.path + "/" + backend.defaultStoreName
        var generator = SplitMix64(seed: UInt64(backend.name.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        var survivors = 0
        for round in 0..<Self.rounds {
            let prefix = "r\(round)x"
            let wanted = Int.random(in: 1...40, using: &generator)
            let reported = try await runAndKill(backend: backend.name, store: store, prefix: prefix, afterLines: wanted)
            let repository = try await backend.open(
                BackendConfiguration(location: store, values: backend.defaultValues))
            #expect(try await repository.integrityCheck() == ["ok"], "round \(round)")
            let present = try await repository.users(after: nil, limit: 100_000).map(\.email).filter {
                $0.hasPrefix(prefix)
            }
            let missing = reported.subtracting(present)
            #expect(missing.isEmpty, "round \(round): reported but lost: \(missing.sorted())")
            let extra = Set(present).subtracting(reported)
            let inFlight = "\(prefix)\(reported.count)@example.com"
            #expect(extra.isSubset(of: [inFlight]), "round \(round): unexpected users \(extra.sorted())")
            for email in present {
                let user = try #require(try await repository.user(email: email))
                #expect(try await repository.sessions(userID: user.id).count == 1, "a user without its session")
            }
            survivors += present.count
            try await repository.close()
        }
        #expect(survivors >= Self.rounds, "every round reported at least one sign-up")
    }

    /// Its parent gone (the test process crashed), the child must stop rather than sign up
    /// users without end: it inherits an ignored SIGPIPE, so a write to the pipe nobody reads
    /// fails with EPIPE instead of killing it.
    @Test("a child whose reader is gone stops after the sign-up it could not report")
    func orphanedChildStops() async throws {
        let scratch = try ScratchFolder("crash-orphan")
        let store = scratch.path + "/accounts.sqlite"
        let output = try FileHandle.closeOnExecPipe()
        try output.read.close()
        // `trap "" PIPE` ignores SIGPIPE in the child whatever this process does, as SwiftNIO's
        // SIG_IGN does once any test has opened a socket.
        let process = try SpawnedProcess(
            "/bin/sh", ["-c", #"trap "" PIPE; exec "$0" sqlite "$1" orphan 200"#, Self.tortureExecutable, store],
            standardOutput: .descriptor(output.write.fileDescriptor))
        try output.write.close()
        // Bounded: a child that does not stop is the failure this test looks for, not a hang.
        let status = try await process.exitStatus(within: .seconds(120))
        #expect(status == 3, "stopped at its first failed report")
        let sqlite = try BackendRegistry.standard.descriptor(named: "sqlite")
        let repository = try await BackendRegistry.standard.open(
            sqlite, BackendConfiguration(location: store, values: sqlite.defaultValues))
        #expect(try await repository.users(after: nil, limit: 1_000).count == 1, "one sign-up, then it stopped")
        try await repository.close()
    }

    /// Starts the child, waits until it has reported `afterLines` sign-ups, kills it with SIGKILL,
    /// and returns every sign-up it reported before dying.
    func runAndKill(backend: String, store: String, prefix: String, afterLines: Int) async throws -> Set<String> {
        let pipe = try FileHandle.closeOnExecPipe()
        let process = try SpawnedProcess(
            Self.tortureExecutable, [backend, store, prefix], standardOutput: .descriptor(pipe.write.fileDescriptor))
        try pipe.write.close()
        let output = pipe.read
        // The reads block until the child prints: off the cooperative pool, like every wait for a
        // child (ChildProcessWaits.swift).
        var text = await SerialIOQueue(label: "torture output").run {
            var text = ""
            while text.split(separator: "\n").count < afterLines {
                let data = output.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        process.signal(SIGKILL)
        _ = await process.exitStatus()
        text += String(decoding: await output.readToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal, "the child died by the signal, not by an error")
        return Set(text.split(separator: "\n").filter { $0.hasPrefix("done ") }.map { String($0.dropFirst(5)) })
    }
}
