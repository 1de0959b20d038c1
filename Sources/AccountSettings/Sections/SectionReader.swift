import AccountBackendKit
import AccountCore
import Configuration
import Foundation

/// How one section of the global settings reads its keys: from the layered sources while the
/// settings load, or each key's default while the schema lists the keys. A section's keys are
/// therefore exactly the ones its reading reads, in that order: each is declared once, where it
/// is read, and no list of them is kept by hand.
final class SectionReader {
    /// Where the values come from.
    enum Source {
        /// Every key's built-in default (listing the keys, describing the schema).
        case defaults
        /// Flags over the environment over the file over the defaults, and where paths were set.
        case layered(ConfigReader, PathOrigins)
    }

    /// The section: the keys' first component.
    let section: String
    /// The folders unset paths default to.
    let locations: XDGLocations
    let source: Source
    /// The keys read so far, in the order read.
    private(set) var keys: [SettingKey] = []

    init(section: String, source: Source, locations: XDGLocations) {
        self.section = section
        self.source = source
        self.locations = locations
    }

    /// The key of `setting` in this section.
    func key<Value>(_ setting: BackendSetting<Value>) -> SettingKey {
        SettingKey(section: section, option: setting.option)
    }

    /// The value of `setting`, as its declaration types it.
    /// - Throws: `configInvalid` naming the key for a value of the wrong kind or out of range.
    func value<Value>(_ setting: BackendSetting<Value>) throws(AccountError) -> Value {
        let key = record(setting)
        guard case .layered(let config, _) = source else { return setting.defaultValue }
        return try setting.value(in: [setting.name: try SettingsLoader.optionValue(config, key)])
    }

    /// The absolute path set for `setting`, or `nil` when it is unset (the section knows the
    /// default, which may depend on where the files of the CLI live).
    /// - Throws: `configInvalid` naming the key for an empty path, or `~` without `HOME`.
    func path(_ setting: BackendSetting<String?>) throws(AccountError) -> String? {
        let key = record(setting)
        guard case .layered(_, let origins) = source else { return nil }
        return try origins.resolve(key)
    }

    /// A comma-separated list, each entry trimmed of spaces and tabs and checked by `problem`:
    /// an entry written so that it could match nothing is refused, saying why, rather than
    /// silently ignored.
    /// - Throws: `configInvalid` naming the key and the first entry's problem.
    func list(_ setting: BackendSetting<String>, _ problem: (String) -> String?) throws(AccountError) -> [String] {
        let entries = try value(setting).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if let reason = entries.lazy.compactMap(problem).first {
            throw .configInvalid(key: key(setting).name, reason: reason)
        }
        return entries
    }

    private func record<Value>(_ setting: BackendSetting<Value>) -> SettingKey {
        let key = key(setting)
        keys.append(key)
        return key
    }
}
