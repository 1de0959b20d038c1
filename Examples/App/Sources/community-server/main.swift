import CommunityApp
import Foundation
import Hummingbird
import Logging

// The community app's server: `community-server [STORE] [PORT]`, by default `community.sqlite`
// in the working folder and port 8080. Stops on SIGTERM or SIGINT.
let arguments = CommandLine.arguments.dropFirst()
let storePath = arguments.first ?? "community.sqlite"
let port = arguments.dropFirst().first.flatMap(Int.init) ?? 8080
let app = try await CommunityApp(storePath: storePath)
try await app.application(port: port, logger: Logger(label: "community")).runService()
try await app.close()
