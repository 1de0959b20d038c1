import AccountBackendKit
import AccountConformance

/// The backends the running CLI offers, and their fixtures for `accounts verify`.
/// `AccountsMain.run(_:backends:fixtures:)` binds them for the whole run (commands are parsed by
/// swift-argument-parser, so they cannot take them as arguments).
enum CLIBackends {
    @TaskLocal static var registry = BackendRegistry([])
    @TaskLocal static var fixtures = BackendFixtureSet([])
}
