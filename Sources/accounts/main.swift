import AccountsCLI
import StandardBackends

#if canImport(Glibc)
    import Glibc
#endif

exit(await AccountsMain.run(Array(CommandLine.arguments.dropFirst()), backends: .standard))
