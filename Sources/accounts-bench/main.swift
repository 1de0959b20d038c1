// accounts-bench over the standard backends; see AccountsBenchMain.
import AccountBackendKit
import AccountsBench
import StandardBackendFixtures
import StandardBackends

#if canImport(Glibc)
    import Glibc
#endif

exit(await AccountsBenchMain.run(Array(CommandLine.arguments.dropFirst()), backends: .standard, fixtures: .standard))
