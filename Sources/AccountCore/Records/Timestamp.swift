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

extension Timestamp {
    /// The instant to the minute, in UTC, for people to read: `YYYY-MM-DD hh:mm UTC` (the
    /// same for every reader, wherever they are).
    public var minuteUTC: String {
        let iso = iso8601
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
    }

    /// The instant in ISO 8601, UTC, to the millisecond: `YYYY-MM-DDThh:mm:ss.sssZ`.
    public var iso8601: String {
        let milliseconds = millisecondsSince1970
        let seconds = milliseconds >= 0 ? milliseconds / 1_000 : (milliseconds - 999) / 1_000
        let millis = milliseconds - seconds * 1_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Days to a civil date (Howard Hinnant's algorithm, proleptic Gregorian calendar).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milli = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3_600)):\(two(secondOfDay % 3_600 / 60))"
            + ":\(two(secondOfDay % 60)).\(milli)Z"
    }
}
