import AccountsCLI
import StandardBackendFixtures
import StandardBackends

await AccountsMain.runAndExit(Array(CommandLine.arguments.dropFirst()), backends: .standard, fixtures: .standard)
