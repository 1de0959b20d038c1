// swift-tools-version: 6.2
import PackageDescription

/// Settings every target of ours shares: Swift 6 mode comes from the tools version;
/// warnings are errors in our own code only (dependencies are untouched).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "AccountStore",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AccountCore", targets: ["AccountCore"]),
        .library(name: "AccountCrypto", targets: ["AccountCrypto"]),
        .library(name: "AccountConformance", targets: ["AccountConformance"]),
        .library(name: "AccountTransfer", targets: ["AccountTransfer"]),
        .library(name: "JSONFileBackend", targets: ["JSONFileBackend"]),
        .library(name: "SQLiteBackend", targets: ["SQLiteBackend"]),
        .library(name: "LMDBBackend", targets: ["LMDBBackend"]),
        .library(name: "PostgresBackend", targets: ["PostgresBackend"]),
        .library(name: "BackendRegistry", targets: ["BackendRegistry"]),
        .executable(name: "accounts", targets: ["accounts"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration", exact: "1.4.0", traits: ["YAML"]),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // Named directly (both already come with postgres-nio) for `Logger` and TLS settings.
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
    ],
    targets: [
        .systemLibrary(name: "CSodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CZxcvbn", providers: [.apt(["libzxcvbn-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLMDB", providers: [.apt(["liblmdb-dev"])]),
        .target(name: "AccountCore", swiftSettings: strict),
        .target(
            name: "AccountCrypto",
            dependencies: ["AccountCore", "CSodium", "CZxcvbn"],
            swiftSettings: strict
        ),
        .target(name: "StoreSupport", dependencies: ["AccountCore"], swiftSettings: strict),
        .target(
            name: "JSONFileBackend",
            dependencies: ["AccountCore", "StoreSupport"],
            swiftSettings: strict
        ),
        .target(
            name: "SQLiteBackend",
            dependencies: ["AccountCore", "StoreSupport", "CSQLite"],
            swiftSettings: strict
        ),
        .target(
            name: "LMDBBackend",
            dependencies: ["AccountCore", "StoreSupport", "CLMDB"],
            swiftSettings: strict
        ),
        .target(
            name: "PostgresBackend",
            dependencies: [
                "AccountCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountTransfer",
            dependencies: ["AccountCore", "AccountCrypto", "StoreSupport"],
            swiftSettings: strict
        ),
        .target(
            name: "AccountConformance",
            dependencies: ["AccountCore"],
            swiftSettings: strict
        ),
        .target(
            name: "BackendRegistry",
            dependencies: [
                "AccountCore", "AccountConformance", "JSONFileBackend", "SQLiteBackend", "LMDBBackend",
                "PostgresBackend",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountSettings",
            dependencies: [
                "AccountCore", "BackendRegistry",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountsCLI",
            dependencies: [
                "AccountCore", "AccountCrypto", "AccountConformance", "BackendRegistry", "AccountSettings",
                "AccountTransfer", "StoreSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "accounts", dependencies: ["AccountsCLI"], swiftSettings: strict),
        .executableTarget(
            name: "accounts-bench",
            dependencies: ["AccountCore", "AccountCrypto", "AccountSettings", "BackendRegistry"],
            swiftSettings: strict),
        .executableTarget(
            name: "accounts-torture", dependencies: ["AccountCore", "BackendRegistry"], swiftSettings: strict),
        .testTarget(
            name: "AccountStoreTests",
            dependencies: [
                "AccountCore", "AccountCrypto", "StoreSupport", "JSONFileBackend", "SQLiteBackend", "PostgresBackend",
                "AccountConformance", "AccountTransfer",
                "BackendRegistry", "AccountSettings", "AccountsCLI", "accounts", "accounts-torture", "CSQLite",
            ],
            exclude: ["Fixtures", "Scenarios"],
            swiftSettings: strict
        ),
    ]
)
