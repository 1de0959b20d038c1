#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The source of "now" for everything time-dependent (session expiry, throttling).
///
/// Injected so that tests can move time without sleeping.
public protocol AccountClock: Sendable {
    /// The current time.
    func now() -> Timestamp
}

/// The wall clock.
public struct SystemClock: AccountClock {
    /// Creates the wall clock.
    public init() {}

    public func now() -> Timestamp {
        Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
