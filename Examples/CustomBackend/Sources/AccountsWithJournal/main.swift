// The whole `accounts` CLI: the standard backends plus the journal.
import AccountsCLI
import JournalBackend
import StandardBackends

#if canImport(Glibc)
    import Glibc
#endif

exit(
    await AccountsMain.run(
        Array(CommandLine.arguments.dropFirst()), backends: .standard.adding(JournalBackendDescriptor())))
