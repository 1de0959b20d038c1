import AccountBackendKit

/// The backends the running CLI offers. `AccountsMain.run(_:backends:)` binds it for the whole
/// run (commands are parsed by swift-argument-parser, so they cannot take it as an argument).
enum CLIBackends {
    @TaskLocal static var registry = BackendRegistry([])
}
