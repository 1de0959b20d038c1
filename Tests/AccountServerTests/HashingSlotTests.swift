import AccountCore
import AccountCrypto
import AccountServer
import AccountTestSupport
import BackendTestSupport
import MemoryBackend
import NIOHTTP1
import Synchronization
import Testing

/// A hashing slot bounds Argon2id, not the request: while a request reads or writes the store
/// (a login's session write waits for a flush to disk), its slot is free for another hash.
@Suite("Hashing slots")
struct HashingSlotTests {
    static let password = "Tangerine-Kayak-42"
    static let newPassword = "Marigold-Canoe-77"

    @Test("every hash runs in a slot, and no store call is made while one is held")
    func slotCoversTheHashAlone() async throws {
        let gate = HashingGate(concurrency: 1, queueLimit: 8)
        let slotsAtStoreCalls = Mutex<[(call: String, held: Int)]>([])
        let slotsAtHashes = Mutex<[Int]>([])
        let repository = ObservedRepository(MemoryUserRepository()) { call in
            slotsAtStoreCalls.withLock { $0.append((call, gate.inProgress)) }
        }
        let hasher = ProbeHasher { slotsAtHashes.withLock { $0.append(gate.inProgress) } }
        try await LiveServer.run(repository: repository, hasher: hasher, gate: gate) { server in
            let signUp = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"leesoon7@example.com","password":"\#(Self.password)","nickname":"이순신"}"#)
            #expect(signUp.status == 201)
            let login = try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"\#(Self.password)"}"#)
            let token = try #require(login.token)
            let wrong = try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"Wrong-Kayak-42"}"#)
            #expect(wrong.status == 401)
            let unknown = try await server.send(
                .POST, "/v1/login", json: #"{"email":"nobody77@example.com","password":"\#(Self.password)"}"#)
            #expect(unknown.status == 401)
            let change = try await server.send(
                .POST, "/v1/password",
                json: #"{"current_password":"\#(Self.password)","new_password":"\#(Self.newPassword)"}"#,
                token: token)
            #expect(change.status == 200)
            let withdraw = try await server.send(
                .POST, "/v1/withdraw", json: #"{"password":"\#(Self.newPassword)"}"#, token: token)
            #expect(withdraw.status == 200)
        }
        let storeCalls = slotsAtStoreCalls.withLock { $0 }
        let held = storeCalls.filter { $0.held != 0 }.map(\.call)
        #expect(held.isEmpty, "store calls made while a hashing slot was held: \(held)")
        #expect(storeCalls.contains { $0.call == "createSession" }, "the login wrote its session")
        #expect(
            !storeCalls.contains { $0.call == "recordLoginFailure" },
            "a remote wrong password is counted by the throttle in memory, never with a store write")
        #expect(storeCalls.contains { $0.call == "deleteUser" }, "the withdrawal reached the store")
        // Sign-up, login, wrong password, unknown email, the change (its check and its new hash)
        // and the withdrawal: seven Argon2id runs, each inside the one slot.
        #expect(slotsAtHashes.withLock { $0 } == Array(repeating: 1, count: 7))
        #expect(gate.inProgress == 0)
    }
}

/// The fast test hasher, with a hook called at the start of every hash and verification.
private struct ProbeHasher: PasswordHasher {
    let inner = Argon2idPasswordHasher.fastForTests
    let probe: @Sendable () -> Void

    func hash(_ password: String) throws -> String {
        probe()
        return try inner.hash(password)
    }

    func verify(_ password: String, against phcString: String) -> Bool {
        probe()
        return inner.verify(password, against: phcString)
    }

    func needsRehash(_ phcString: String) -> Bool { inner.needsRehash(phcString) }
    func dummyHash() -> String { inner.dummyHash() }
}

/// The gate refuses at the door: a request beyond its slots and queue gets 503 at once, even
/// when every hashing thread is busy in a hash (before requests were admitted at the door, the
/// request waited for a thread to reach the slots' check, and under load was never refused).
@Suite("Hashing gate admission")
struct HashingGateAdmissionTests {
    @Test("with every slot hashing and no queue, one more sign-up is refused at once")
    func refusedWhileEverySlotHashes() async throws {
        // Computing, not blocked: Dispatch adds threads for blocked workers, never for computing ones.
        let hasher = HeldHasher(spinning: true)
        try await LiveServer.with(
            Backends.sqlite, gate: HashingGate(concurrency: 2, queueLimit: 0), hasher: hasher
        ) { server in
            async let first = server.send(.POST, "/v1/signup", json: Self.signUp("first77"))
            async let second = server.send(.POST, "/v1/signup", json: Self.signUp("second77"))
            await hasher.waitUntilHashing()
            await hasher.waitUntilHashing()
            let refused: ServerClient.Reply
            do {
                refused = try await server.send(.POST, "/v1/signup", json: Self.signUp("third77"))
            } catch {
                // Not answered (the client gave up): let the held hashes end before failing.
                hasher.release()
                hasher.release()
                throw error
            }
            #expect(refused.status == 503)
            #expect(refused.code == "server_busy")
            hasher.release()
            hasher.release()
            #expect(try await first.status == 201)
            #expect(try await second.status == 201)
            #expect(try await server.repository.userCount() == 2)
        }
    }

    static func signUp(_ name: String) -> String {
        #"{"email":"\#(name)@example.com","password":"Tangerine-Kayak-42","nickname":"이순신"}"#
    }
}
