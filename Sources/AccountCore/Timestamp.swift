/// A point in time with millisecond precision, stored as milliseconds since 1970-01-01T00:00:00Z.
///
/// Integer milliseconds round-trip exactly through every backend, which a floating-point `Date`
/// would not.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch.
    public var millisecondsSince1970: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// This timestamp moved forward by `seconds` (negative moves it back).
    public func adding(seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: millisecondsSince1970 &+ seconds &* 1000)
    }

    /// Whole seconds from `self` to `later`, rounded up, never negative.
    public func secondsUntil(_ later: Timestamp) -> Int64 {
        let millis = later.millisecondsSince1970 - millisecondsSince1970
        return millis <= 0 ? 0 : (millis + 999) / 1000
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    public var description: String { "\(millisecondsSince1970)ms" }
}
