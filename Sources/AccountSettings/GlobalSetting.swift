import AccountBackendKit

/// A global setting, declared once: its section (the config path is `section.name` and the
/// variable `ACCOUNTS_SECTION_NAME`) and, through the ``BackendSetting`` a backend declares its
/// options with, its type, range, default and doc line. ``SettingsLoader`` reads it as a
/// `Value`, so a key can be neither misspelled nor read as the wrong type.
struct GlobalSetting<Value: Sendable>: Sendable {
    /// The key's first component: `session`, `password`, `hashing`, `login` or `server`.
    let section: String
    /// The key inside its section, with its type, default and summary.
    let setting: BackendSetting<Value>

    init(_ section: String, _ setting: BackendSetting<Value>) {
        self.section = section
        self.setting = setting
    }

    /// The key as the loader, `accounts config` and the reference list it.
    var key: SettingKey { SettingKey(section: section, option: setting.option) }

    /// The built-in default.
    var defaultValue: Value { setting.defaultValue }
}
