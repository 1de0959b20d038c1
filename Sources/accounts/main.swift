import AccountsCLI
import StandardBackends

await AccountsMain.runAndExit(Array(CommandLine.arguments.dropFirst()), backends: .standard)
