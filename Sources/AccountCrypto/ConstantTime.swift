import CSodium

/// Comparisons whose time does not depend on where two byte strings differ.
enum ConstantTime {
    /// Whether `a` and `b` are the same bytes (their lengths are not secret).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && (a.isEmpty || sodium_memcmp(a, b, a.count) == 0)
    }
}
