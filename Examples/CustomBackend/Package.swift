// swift-tools-version: 6.2
// A backend written outside AccountStore: an append-only journal file. It depends on
// AccountStore by path with its default traits off, so nothing of PostgreSQL or `accounts serve`
// (SwiftNIO, BoringSSL, Hummingbird) is compiled here: the kit, the suite, the embedded backends
// and the CLI only.
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "CustomBackend",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "JournalBackend", targets: ["JournalBackend"]),
        .library(name: "JournalBackendFixtures", targets: ["JournalBackendFixtures"]),
        .executable(name: "accounts", targets: ["AccountsWithJournal"]),
        .executable(name: "accounts-bench", targets: ["AccountsBenchWithJournal"]),
    ],
    // snippet.dependencies
    dependencies: [
        // Default traits off: neither the PostgreSQL backend nor `accounts serve` (SwiftNIO,
        // BoringSSL, Hummingbird) is compiled. `traits: ["Server"]` brings the server back.
        .package(name: "AccountStore", path: "../..", traits: [])
    ],
    targets: [
        // The backend needs the domain and the backend kit only.
        .target(
            name: "JournalBackend",
            dependencies: [
                .product(name: "AccountCore", package: "AccountStore"),
                .product(name: "AccountBackendKit", package: "AccountStore"),
            ],
            swiftSettings: strict),
        // What the shared suite plants for it (`BackendFixtures`), in a target of its own: only
        // the tests, `accounts verify` and the bench link the suite.
        .target(
            name: "JournalBackendFixtures",
            dependencies: [
                "JournalBackend",
                .product(name: "AccountBackendKit", package: "AccountStore"),
                .product(name: "AccountConformance", package: "AccountStore"),
            ],
            swiftSettings: strict),
        // snippet.end
        // The whole `accounts` CLI with the standard backends plus this one.
        .executableTarget(
            name: "AccountsWithJournal",
            dependencies: [
                "JournalBackend", "JournalBackendFixtures",
                .product(name: "AccountsCLI", package: "AccountStore"),
                .product(name: "StandardBackends", package: "AccountStore"),
                .product(name: "StandardBackendFixtures", package: "AccountStore"),
            ],
            swiftSettings: strict),
        // accounts-bench, able to measure the journal like the standard backends.
        .executableTarget(
            name: "AccountsBenchWithJournal",
            dependencies: [
                "JournalBackend", "JournalBackendFixtures",
                .product(name: "AccountsBench", package: "AccountStore"),
                .product(name: "StandardBackends", package: "AccountStore"),
                .product(name: "StandardBackendFixtures", package: "AccountStore"),
            ],
            swiftSettings: strict),
        // snippet.tests
        // The shared conformance suite, run on this backend.
        .testTarget(
            name: "JournalBackendTests",
            dependencies: [
                "JournalBackend", "JournalBackendFixtures",
                .product(name: "AccountConformance", package: "AccountStore"),
                .product(name: "StandardBackends", package: "AccountStore"),
                .product(name: "StandardBackendFixtures", package: "AccountStore"),
            ],
            swiftSettings: strict),
        // snippet.end
    ]
)
