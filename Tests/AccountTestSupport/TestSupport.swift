package import AccountBackendKit
import AccountConformance
package import AccountCore
import AccountCrypto
import Foundation
import Synchronization

/// A clock that moves only when told to.
package final class ManualClock: AccountClock {
    private let current = Mutex(Timestamp(millisecondsSince1970: 1_800_000_000_000))
    package init() {}
    package func now() -> Timestamp { current.withLock { $0 } }
    package func advance(seconds: Int64) { current.withLock { $0 = $0.adding(seconds: seconds) } }
}

/// Deterministic "random" bytes, so ids and tokens repeat from run to run.
package final class SeededRandom: RandomSource {
    private let generator = Mutex(SplitMix64(seed: 0x1234_5678))
    package init() {}
    package func bytes(_ count: Int) -> [UInt8] {
        generator.withLock { generator in (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
    }
}

/// Wraps a hasher and counts its verifications, to prove the unknown-email path verifies too.
package final class CountingHasher: PasswordHasher {
    package let inner: any PasswordHasher
    private let counts = Mutex((hashes: 0, verifications: 0))
    package init(_ inner: any PasswordHasher) { self.inner = inner }
    package var verifications: Int { counts.withLock { $0.verifications } }
    package var hashes: Int { counts.withLock { $0.hashes } }
    package func hash(_ password: String) throws -> String {
        counts.withLock { $0.hashes += 1 }
        return try inner.hash(password)
    }
    package func verify(_ password: String, against phcString: String) -> Bool {
        counts.withLock { $0.verifications += 1 }
        return inner.verify(password, against: phcString)
    }
    package func needsRehash(_ phcString: String) -> Bool { inner.needsRehash(phcString) }
    package func dummyHash() -> String { inner.dummyHash() }
    package func verify(typed password: String, against stored: String) -> Bool {
        counts.withLock { $0.verifications += 1 }
        return inner.verify(typed: password, against: stored)
    }
}

/// Counts the strength estimates a service asks for, so a test can tell a form was checked once.
package final class CountingEstimator: PasswordStrengthEstimator {
    private let inner = ZxcvbnStrengthEstimator()
    private let count = Mutex(0)
    package init() {}
    package var estimates: Int { count.withLock { $0 } }
    package func guessesLog2(_ password: String, userWords: [String]) -> Double {
        count.withLock { $0 += 1 }
        return inner.guessesLog2(password, userWords: userWords)
    }
}

/// A service over a fresh store of one backend, with a manual clock, seeded randomness and
/// libsodium's minimum Argon2id parameters (fast; never for real accounts).
package struct ServiceHarness {
    package let backend: any BackendDescriptor
    package let folder: String
    package let clock = ManualClock()
    package let random = SeededRandom()
    package let hasher: CountingHasher
    package let strength = CountingEstimator()
    package let repository: any UserRepository
    package let service: AccountService

    package static func with<T>(
        _ backend: any BackendDescriptor,
        hasher: any PasswordHasher = Argon2idPasswordHasher.fastForTests,
        throttle: LoginThrottlePolicy = LoginThrottlePolicy(),
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

    package init(
        backend: any BackendDescriptor, folder: String, hasher: any PasswordHasher, throttle: LoginThrottlePolicy
    )
        async throws
    {
        self.backend = backend
        self.folder = folder
        self.hasher = CountingHasher(hasher)
        repository = try await backend.open(
            BackendConfiguration(location: folder + "/" + backend.defaultStoreName, values: backend.defaultValues))
        service = AccountService(
            repository: repository, hasher: self.hasher, strength: strength,
            digester: SHA256TokenDigester(), random: random, clock: clock, throttlePolicy: throttle)
    }

    /// A second service on the same store with another hasher (e.g. stronger parameters).
    package func service(with hasher: any PasswordHasher) -> AccountService {
        AccountService(
            repository: repository, hasher: hasher, strength: ZxcvbnStrengthEstimator(),
            digester: SHA256TokenDigester(),
            random: random, clock: clock)
    }

    package static let password = "Tangerine-Kayak-42"

    @discardableResult
    package func signUp(_ email: String = "leesoon7@example.com", nickname: String = "이순신", password: String = password)
        async throws -> SignedInSession
    {
        try await service.signUp(email: email, password: password, confirmation: password, nickname: nickname)
    }
}

/// Runs `body` and returns the `AccountError` it threw (nil if none).
package func accountError(_ body: () async throws -> Void) async -> AccountError? {
    do {
        try await body()
        return nil
    } catch let error as AccountError {
        return error
    } catch let refused as any RefusedForm {
        return refused.first
    } catch {
        return .storeIO(detail: "untyped: \(error)")
    }
}
