import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// A store or session file kept elsewhere (a mounted volume) and reached through a symbolic
/// link: every write goes where the link points, and the link stays a link. Renaming a new file
/// over the link would leave the store it named behind and fork it in two.
@Suite("Stores reached through a symbolic link")
struct SymbolicLinkStoreTests {
    static let password = "Tangerine-Kayak-42"

    @Test(
        "a store and a session file reached through links are created and changed where the links point",
        arguments: BackendRegistry.embedded.descriptors)
    func linkedStore(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("linked-store-\(backend.name)")
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: cli.root + "/volume", withIntermediateDirectories: true)
        let store = cli.root + "/" + backend.defaultStoreName
        let session = cli.root + "/session"
        // Both dangling at first: the first sign-up creates the files at the targets.
        let storeTarget = "volume/" + backend.defaultStoreName
        try fileManager.createSymbolicLink(atPath: store, withDestinationPath: storeTarget)
        try fileManager.createSymbolicLink(atPath: session, withDestinationPath: "volume/session")
        let options = ["--backend", backend.name, "--store", store, "--session-file", session]
        for (n, email) in ["leesoon7@example.com", "kimchul9@example.com"].enumerated() {
            let signup = try await cli.run(
                ["signup", "--email", email, "--nickname", "주민 \(n)", "--password-stdin"] + options,
                stdin: [Self.password, Self.password])
            #expect(signup.status == 0, "\(signup.stderr)")
        }
        #expect(try fileManager.destinationOfSymbolicLink(atPath: store) == storeTarget, "the store's link is a link")
        #expect(try fileManager.destinationOfSymbolicLink(atPath: session) == "volume/session")
        let count = try await cli.run(
            ["users", "count", "--backend", backend.name, "--store", cli.root + "/" + storeTarget])
        #expect(count.stdout == "2\n", "both sign-ups are in the store the link names: \(count.stderr)")
        let whoami = try await cli.run(
            [
                "whoami", "--backend", backend.name, "--store", cli.root + "/" + storeTarget, "--session-file",
                cli.root + "/volume/session",
            ])
        #expect(whoami.stdout.contains("kimchul9@example.com"), "the session saved through the link: \(whoami.stderr)")
    }
}
