import AccountCore

/// The times other systems' exports write, read into a ``Timestamp`` without a date formatter
/// (a million rows read fast): ISO 8601 and PostgreSQL's text form
/// (`YYYY-MM-DDThh:mm:ss.sssZ`, `YYYY-MM-DD hh:mm:ss.ffffff+00`, `+09:00`, no zone = UTC), and
/// milliseconds since 1970 as a number or a string of digits (Firebase, Keycloak, Strapi's
/// SQLite).
enum SourceTime {
    /// `text` as a time, or nil when it is none of those forms.
    static func parse(_ text: String) -> Timestamp? {
        let scalars = Array(text.utf8)
        if !scalars.isEmpty, scalars.allSatisfy({ $0 >= 48 && $0 <= 57 }), let ms = Int64(text) {
            return Timestamp(millisecondsSince1970: ms)
        }
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[index..<index + digits] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func skip(_ allowed: Set<UInt8>) -> Bool {
            guard index < scalars.count, allowed.contains(scalars[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip([45]), let month = number(2), skip([45]), let day = number(2),
            skip([84, 32]), let hour = number(2), skip([58]), let minute = number(2), skip([58]),
            let second = number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var milliseconds = 0
        if skip([46]) {
            var digits = 0
            while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(scalars[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        var offset = 0
        if index < scalars.count {
            if skip([90]) {
                offset = 0
            } else if index < scalars.count, scalars[index] == 43 || scalars[index] == 45 {
                let sign = scalars[index] == 45 ? -1 : 1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = skip([58])
                let minutes = index < scalars.count ? number(2) : 0
                guard let minutes else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard index == scalars.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Timestamp(millisecondsSince1970: Int64(seconds) * 1000 + Int64(milliseconds))
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's `days_from_civil`).
    private static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
