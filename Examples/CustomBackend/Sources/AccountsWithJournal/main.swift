// The whole `accounts` CLI: the standard backends plus the journal.
// snippet.main
import AccountsCLI
import JournalBackend
import StandardBackends

await AccountsMain.runAndExit(
    Array(CommandLine.arguments.dropFirst()), backends: .standard.adding(JournalBackendDescriptor()))
// snippet.end
