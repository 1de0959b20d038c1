/// The languages messages are written in.
public enum Language: String, Sendable, CaseIterable {
    case english = "en"
    case korean = "ko"

    /// Picks the language from POSIX locale variables: `LC_ALL`, then `LC_MESSAGES`, then `LANG`;
    /// a value starting with `ko` means Korean, anything else English.
    public static func fromLocale(environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return value.lowercased().hasPrefix("ko") ? .korean : .english
        }
        return .english
    }
}
