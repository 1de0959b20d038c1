// The whole `accounts` CLI: the standard backends plus the journal, and their fixtures for
// `accounts verify`.
// snippet.main
import AccountsCLI
import JournalBackend
import JournalBackendFixtures
import StandardBackendFixtures
import StandardBackends

await AccountsMain.runAndExit(
    Array(CommandLine.arguments.dropFirst()), backends: .standard.adding(JournalBackendDescriptor()),
    fixtures: .standard.adding(JournalFixtures()))
// snippet.end
