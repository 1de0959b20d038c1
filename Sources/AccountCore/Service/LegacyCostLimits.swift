/// The most a stored hash of another system may cost to check, so that a hash whose parameters
/// are absurd (bcrypt cost 31, 2,000,000,000 PBKDF2 rounds, Argon2 with 4 GiB) is refused
/// instead of run: two such logins would otherwise hold every hashing thread for hours, and a
/// large Argon2 working memory would stay with the process. The defaults sit above what the
/// systems AccountStore imports from ship (bcrypt 10–12, Django's 1,000,000 PBKDF2 rounds,
/// sha512-crypt's 5,000, Argon2 with 19–64 MiB) and well below what would pin a thread. A hash
/// over them is refused at import (naming the parameter) and never verified at login: its user
/// cannot sign in until an operator looks (`accounts doctor` counts them).
public struct LegacyCostLimits: Sendable, Hashable {
    /// bcrypt's cost (log₂ of its rounds), at most.
    public var bcryptCost: Int
    /// PBKDF2's iterations, at most.
    public var pbkdf2Iterations: Int
    /// The sha256-crypt and sha512-crypt rounds, at most.
    public var cryptRounds: Int
    /// Argon2's memory in KiB, at most.
    public var argon2MemoryKiB: Int
    /// Argon2's passes, at most.
    public var argon2Passes: Int

    /// The limits; each default as the type documents.
    public init(
        bcryptCost: Int = 16, pbkdf2Iterations: Int = 10_000_000, cryptRounds: Int = 10_000_000,
        argon2MemoryKiB: Int = 262_144, argon2Passes: Int = 20
    ) {
        self.bcryptCost = bcryptCost
        self.pbkdf2Iterations = pbkdf2Iterations
        self.cryptRounds = cryptRounds
        self.argon2MemoryKiB = argon2MemoryKiB
        self.argon2Passes = argon2Passes
    }

    /// Why a bcrypt cost (log₂ of its rounds) is too much, or `nil`.
    public func problem(bcryptCost cost: Int) -> String? {
        cost > bcryptCost ? "bcrypt cost \(cost) is over the limit of \(bcryptCost)" : nil
    }

    /// Why `iterations` PBKDF2 rounds cost too much, or `nil`.
    public func problem(pbkdf2Iterations iterations: Int) -> String? {
        iterations > pbkdf2Iterations
            ? "\(iterations) PBKDF2 iterations are over the limit of \(pbkdf2Iterations)" : nil
    }

    /// Why `rounds` of sha256-crypt or sha512-crypt cost too much, or `nil`.
    public func problem(cryptRounds rounds: Int) -> String? {
        rounds > cryptRounds ? "\(rounds) crypt rounds are over the limit of \(cryptRounds)" : nil
    }

    /// Why Argon2 with `memoryKiB` and `passes` costs too much, or `nil`.
    public func problem(argon2MemoryKiB memoryKiB: Int, passes: Int) -> String? {
        if memoryKiB > argon2MemoryKiB {
            return "Argon2 memory of \(memoryKiB) KiB is over the limit of \(argon2MemoryKiB)"
        }
        if passes > argon2Passes { return "\(passes) Argon2 passes are over the limit of \(argon2Passes)" }
        return nil
    }
}
