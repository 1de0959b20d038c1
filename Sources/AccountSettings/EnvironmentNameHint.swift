/// What an operator probably meant by an `ACCOUNTS_` variable that is not a setting: a typo of
/// one, a setting named without its section (`ACCOUNTS_PORT`), the start of several, or a
/// command-line option that has no variable of its own.
struct EnvironmentNameHint {
    /// Suggestions past this many would be a list to read, not a hint.
    static let maximumSuggestions = 5

    let schema: SettingsSchema

    /// The hint for `name`, or nil when nothing is close.
    func hint(for name: String) -> String? {
        switch name {
        case "ACCOUNTS_STORE":
            let variables = schema.storeKeyNames.compactMap { schema.key(named: $0)?.environmentName }
            return "--store sets the chosen backend's store: \(variables.joined(separator: ", "))"
        case "ACCOUNTS_LANG", "ACCOUNTS_LANGUAGE":
            return "the language is --lang, or else LC_ALL, LC_MESSAGES or LANG"
        default:
            let suggestions = suggestions(for: name)
            return suggestions.isEmpty ? nil : "did you mean \(suggestions.joined(separator: ", "))?"
        }
    }

    /// The known variables close to `name`, the closest spelling first.
    func suggestions(for name: String) -> [String] {
        let known = schema.keys.map(\.environmentName)
        let tail = name.dropFirst("ACCOUNTS_".count)
        // A slip of a key or two: a typo, two keys swapped, a letter left out.
        let misspelt = known.map { (name: $0, distance: EditDistance.between(name, $0)) }.filter { $0.distance <= 2 }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.map(\.name)
        var found = misspelt
        // A setting without its section (ACCOUNTS_PORT), or the start of several settings'
        // names (ACCOUNTS_LOGIN_THROTTLE).
        for candidate in known
        where !found.contains(candidate) && (candidate.hasSuffix("_" + tail) || candidate.hasPrefix(name + "_")) {
            found.append(candidate)
        }
        return Array(found.prefix(Self.maximumSuggestions))
    }
}
