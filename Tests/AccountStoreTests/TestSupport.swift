import AccountBackendKit
import AccountCore
import AccountCrypto
import Foundation
import JSONFileBackend
import LMDBBackend
import PostgresBackend
import SQLiteBackend
import StandardBackends
import Synchronization

/// A clock that moves only when told to.
final class ManualClock: AccountClock {
    private let current = Mutex(Timestamp(millisecondsSince1970: 1_800_000_000_000))
    func now() -> Timestamp { current.withLock { $0 } }
    func advance(seconds: Int64) { current.withLock { $0 = $0.adding(seconds: seconds) } }
}

/// Deterministic "random" bytes, so ids and tokens repeat from run to run.
final class SeededRandom: RandomSource {
    private let generator = Mutex(SplitMix64(seed: 0x1234_5678))
    func bytes(_ count: Int) -> [UInt8] {
        generator.withLock { generator in (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
    }
}

/// Wraps a hasher and counts its verifications, to prove the unknown-email path verifies too.
final class CountingHasher: PasswordHasher {
    let inner: any PasswordHasher
    private let counts = Mutex((hashes: 0, verifications: 0))
    init(_ inner: any PasswordHasher) { self.inner = inner }
    var verifications: Int { counts.withLock { $0.verifications } }
    var hashes: Int { counts.withLock { $0.hashes } }
    func hash(_ password: String) throws -> String {
        counts.withLock { $0.hashes += 1 }
        return try inner.hash(password)
    }
    func verify(_ password: String, against phcString: String) -> Bool {
        counts.withLock { $0.verifications += 1 }
        return inner.verify(password, against: phcString)
    }
    func needsRehash(_ phcString: String) -> Bool { inner.needsRehash(phcString) }
    func dummyHash() -> String { inner.dummyHash() }
}

/// A scratch folder removed when the test ends.
struct ScratchFolder: ~Copyable {
    let path: String
    init(_ label: String) throws {
        path = FileManager.default.temporaryDirectory.path + "/accounts-test-\(label)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A service over a fresh store of one backend, with a manual clock, seeded randomness and
/// libsodium's minimum Argon2id parameters (fast; never for real accounts).
struct ServiceHarness {
    let backend: any BackendDescriptor
    let folder: String
    let clock = ManualClock()
    let random = SeededRandom()
    let hasher: CountingHasher
    let repository: any UserRepository
    let service: AccountService

    static func with<T>(
        _ backend: any BackendDescriptor,
        hasher: any PasswordHasher = Argon2idPasswordHasher.fastForTests,
        throttle: ThrottlePolicy = ThrottlePolicy(),
        _ body: (ServiceHarness) async throws -> T
    ) async throws -> T {
        let scratch = try ScratchFolder(backend.name)
        let harness = try await ServiceHarness(
            backend: backend, folder: scratch.path, hasher: hasher, throttle: throttle)
        do {
            let result = try await body(harness)
            try await harness.repository.close()
            return result
        } catch {
            try? await harness.repository.close()
            throw error
        }
    }

    init(backend: any BackendDescriptor, folder: String, hasher: any PasswordHasher, throttle: ThrottlePolicy)
        async throws
    {
        self.backend = backend
        self.folder = folder
        self.hasher = CountingHasher(hasher)
        repository = try await backend.open(
            BackendConfiguration(location: folder + "/" + backend.defaultStoreName, values: backend.defaultValues))
        service = AccountService(
            repository: repository, hasher: self.hasher, strength: ZxcvbnStrengthEstimator(),
            digester: SHA256TokenDigester(), random: random, clock: clock, throttlePolicy: throttle)
    }

    /// A second service on the same store with another hasher (e.g. stronger parameters).
    func service(with hasher: any PasswordHasher) -> AccountService {
        AccountService(
            repository: repository, hasher: hasher, strength: ZxcvbnStrengthEstimator(),
            digester: SHA256TokenDigester(),
            random: random, clock: clock)
    }

    static let password = "Tangerine-Kayak-42"

    @discardableResult
    func signUp(_ email: String = "leesoon7@example.com", nickname: String = "이순신", password: String = password)
        async throws -> SignedInSession
    {
        try await service.signUp(email: email, password: password, confirmation: password, nickname: nickname)
    }
}

/// Runs `body` and returns the `AccountError` it threw (nil if none).
func accountError(_ body: () async throws -> Void) async -> AccountError? {
    do {
        try await body()
        return nil
    } catch let error as AccountError {
        return error
    } catch {
        return .storeIO(detail: "untyped: \(error)")
    }
}

/// The standard backends by name, for tests about one of them.
enum Backends {
    static let sqlite: any BackendDescriptor = SQLiteBackendDescriptor()
    static let lmdb: any BackendDescriptor = LMDBBackendDescriptor()
    static let json: any BackendDescriptor = JSONFileBackendDescriptor()
    static let postgres: any BackendDescriptor = PostgresBackendDescriptor()
}
