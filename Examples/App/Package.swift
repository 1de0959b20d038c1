// swift-tools-version: 6.2
import PackageDescription

// An app developer's package: a Hummingbird app of its own that mounts AccountStore's routes and
// web pages over a SQLite store, and adds a route that calls `AccountService` itself. It pins
// swift-nio as an app might (`exact:`), to prove that AccountStore's version ranges resolve
// beside an app's own graph; `scripts/example-app.sh` builds it and runs its tests.
let package = Package(
    name: "CommunityApp",
    dependencies: [
        // snippet.package
        // The default traits off: the app needs neither the PostgreSQL backend nor the CLI's
        // `accounts serve`; the routes and pages are libraries of their own.
        .package(name: "AccountStore", path: "../..", traits: []),
        // snippet.end
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "CommunityApp",
            // snippet.products
            dependencies: [
                .product(name: "AccountCore", package: "AccountStore"),
                .product(name: "AccountCrypto", package: "AccountStore"),
                .product(name: "AccountBackendKit", package: "AccountStore"),
                .product(name: "SQLiteBackend", package: "AccountStore"),
                .product(name: "AccountServer", package: "AccountStore"),
                .product(name: "AccountServerSettings", package: "AccountStore"),
                .product(name: "AccountWeb", package: "AccountStore"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // snippet.end
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .executableTarget(
            name: "community-server", dependencies: ["CommunityApp"], swiftSettings: [.treatAllWarnings(as: .error)]),
        .testTarget(
            name: "CommunityAppTests",
            dependencies: [
                "CommunityApp",
                .product(name: "AccountCore", package: "AccountStore"),
                .product(name: "AccountCrypto", package: "AccountStore"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ]
)
