import PostgresNIO
import Testing

@testable import PostgresBackend

/// A retired pool lets no call start and is shut down when the last call running on it ends;
/// no server is needed, as no connection is made.
@Suite("PostgreSQL pool retirement")
struct PoolGenerationTests {
    static let nowhere = PostgresClient.Configuration(
        host: "127.0.0.1", port: 1, username: "nobody", password: nil, database: nil, tls: .disable)

    @Test("a pool retired while calls run is shut down when the last of them ends, and no call starts on it")
    func retiredWhileCallsRun() async {
        let pool = PoolGeneration(Self.nowhere, number: 0)
        #expect(pool.startCall())
        #expect(pool.startCall())
        #expect(pool.connectionsInUse == 2)
        pool.retire()
        #expect(!pool.startCall(), "a call started on a retired pool")
        #expect(pool.connectionsInUse == 2)
        pool.endCall()
        #expect(!pool.runner.isCancelled, "the pool was shut down under a running call")
        pool.endCall()
        #expect(pool.runner.isCancelled)
        #expect(pool.connectionsInUse == 0)
        await pool.runner.value
    }

    @Test("a pool retired with no call running is shut down at once")
    func retiredIdle() async {
        let pool = PoolGeneration(Self.nowhere, number: 3)
        #expect(pool.startCall())
        pool.endCall()
        #expect(!pool.runner.isCancelled, "a pool still in use was shut down")
        pool.retire()
        #expect(pool.runner.isCancelled)
        #expect(!pool.startCall())
        await pool.runner.value
    }
}
