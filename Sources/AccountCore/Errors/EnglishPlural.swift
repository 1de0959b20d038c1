/// "1 user", "2 users": English counts in messages (Korean has no plural form to choose).
public enum EnglishPlural {
    /// `count` and the noun, with an `s` unless the count is one (or the irregular plural given).
    public static func count(_ count: Int64, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// The same for an `Int`.
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        Self.count(Int64(count), singular, plural: plural)
    }
}
