import CSodium

/// libsodium's one-time initialisation. `sodium_init` is idempotent and thread-safe; every entry
/// point of this module calls `Sodium.ensureInitialized()` first.
enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    static func ensureInitialized() {
        precondition(initialized, "libsodium failed to initialise")
    }
}
