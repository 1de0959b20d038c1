// accounts-bench with the standard backends plus the journal.
import AccountsBench
import JournalBackend
import JournalBackendFixtures
import StandardBackendFixtures
import StandardBackends

#if canImport(Glibc)
    import Glibc
#endif

exit(
    await AccountsBenchMain.run(
        Array(CommandLine.arguments.dropFirst()), backends: .standard.adding(JournalBackendDescriptor()),
        fixtures: .standard.adding(JournalFixtures())))
