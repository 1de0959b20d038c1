// swift-tools-version: 6.2
import PackageDescription

/// Settings every target of ours shares: Swift 6 mode comes from the tools version;
/// warnings are errors in our own code only (dependencies are untouched); a file sees the
/// members and conformances of the modules it imports itself only (`MemberImportVisibility`),
/// and its imports are internal unless its public API needs them (`InternalImportsByDefault`),
/// so the compiler checks what each file uses and which modules a module's API exposes.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error), .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// How `accounts` is linked, for a start-up that costs less (every call of the CLI is a process):
/// - `--no-export-dynamic`: the toolchain's static-stdlib link exports every symbol of the
///   executable (~43,000 on Linux); nothing looks them up, yet the runtime's start-up dladdr
///   walks them all.
/// - lld (the toolchain's own) with `-z pack-relative-relocs`: the executable stays
///   position-independent (its addresses randomized), and its ~150,000 relative relocations
///   become a ~30 KB DT_RELR table instead of 3.6 MB of RELA entries the loader reads at each
///   start (glibc 2.36 or later runs it). gold, the default, cannot write DT_RELR.
let startUpLinking = [
    "-Xlinker", "--no-export-dynamic", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
]

// Linux only, so no Apple platform is declared: the backends and the CLI call glibc directly
// (`st_mtim`, `Glibc.read`, termios, `posix_spawn`), the C libraries come from Debian packages,
// and nothing is built or tested on another system.
let package = Package(
    name: "AccountStore",
    products: [
        // What a backend author needs: the domain, the backend kit and the shared suite (which
        // only tests, `accounts verify` and the bench link).
        .library(name: "AccountCore", targets: ["AccountCore"]),
        .library(name: "AccountBackendKit", targets: ["AccountBackendKit"]),
        .library(name: "AccountConformance", targets: ["AccountConformance"]),
        // What the suite plants for the standard backends, for a program that runs it on them.
        .library(name: "StandardBackendFixtures", targets: ["StandardBackendFixtures"]),
        // A reference backend in memory, for applications' unit tests.
        .library(name: "MemoryBackend", targets: ["MemoryBackend"]),
        .library(name: "AccountMail", targets: ["AccountMail"]),
        // Signed access tokens (JWT, ES256) and their keys.
        .library(name: "AccountTokens", targets: ["AccountTokens"]),
        // Signing in with GitHub and OpenID Connect providers.
        .library(name: "AccountProviders", targets: ["AccountProviders"]),
        .library(name: "AccountCrypto", targets: ["AccountCrypto"]),
        // The operator's service: listing, check-up, export, import and migration.
        .library(name: "AccountOperations", targets: ["AccountOperations"]),
        .library(name: "JSONFileBackend", targets: ["JSONFileBackend"]),
        .library(name: "SQLiteBackend", targets: ["SQLiteBackend"]),
        .library(name: "LMDBBackend", targets: ["LMDBBackend"]),
        .library(name: "PostgresBackend", targets: ["PostgresBackend"]),
        .library(name: "StandardBackends", targets: ["StandardBackends"]),
        // The CLI and the bench as libraries, so another executable can add its own backends.
        .library(name: "AccountSettings", targets: ["AccountSettings"]),
        .library(name: "AccountsCLI", targets: ["AccountsCLI"]),
        .library(name: "AccountsBench", targets: ["AccountsBench"]),
        // The HTTP routes (native API, Strapi auth routes, /healthz) for any Hummingbird app, and
        // their settings (which the settings loader fills in without the HTTP stack).
        .library(name: "AccountServer", targets: ["AccountServer"]),
        .library(name: "AccountServerSettings", targets: ["AccountServerSettings"]),
        // The apps' screens as web pages over the same routes' service (start, sign-up, welcome…).
        .library(name: "AccountWeb", targets: ["AccountWeb"]),
        // No executable products: SwiftPM makes one for each executable target here (`accounts`,
        // `accounts-bench`), and a package that depends on this one can name its own executables
        // `accounts` without a clash (as Examples/CustomBackend does).
    ],
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "Include the PostgreSQL backend (postgres-nio, SwiftNIO, BoringSSL) in the standard set."),
        .trait(
            name: "Server",
            description: """
                Include `accounts serve` (Hummingbird, SwiftNIO, swift-nio-ssl with BoringSSL for direct HTTPS, \
                the web pages) in the CLI and `serve-baseline` in accounts-bench.
                """),
        .default(enabledTraits: ["PostgreSQL", "Server"]),
    ],
    // Version ranges (`from:`), so that an app that embeds these libraries resolves them beside
    // its own graph; each floor is the version this package is built and tested with (the
    // Examples/App check also builds it beside swift-nio 2.101.2, an app's exact pin).
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["YAML"]),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Patch releases only: the PostgreSQL backend must import postgres-nio's underscored
        // `_ConnectionPoolModule`, because the pool's "gave up connecting" error
        // (`ConnectionPoolError.connectionCreationCircuitBreakerTripped`) reaches callers only as
        // that module's type, and the backend answers it by replacing the pool (`PostgresPool`).
        // A minor release may change that module, so a new one is taken only once it is tested.
        .package(url: "https://github.com/vapor/postgres-nio", .upToNextMinor(from: "1.33.2")),
        // Named directly (both already come with postgres-nio) for `Logger` and TLS settings.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Named directly (it comes with postgres-nio and Hummingbird) for event-loop timers:
        // the request and connection deadlines (`RequestDeadline`, `PostgresDeadline`).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Named directly (it comes with Hummingbird) for the HTTP parts the server's pipeline
        // passes, which `UnparsableRequestHandler` answers a request HTTP cannot parse with.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // `swift package generate-documentation` for the DocC catalogs; a command plugin, so it
        // is built only when documentation is generated, never into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `accounts serve` and the AccountServer routes; swift-service-lifecycle (which
        // Hummingbird brings) runs and stops the server on SIGTERM/SIGINT.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `/metrics` in Prometheus's format.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The web pages' templates (HTML-escaping Mustache; no dependencies of its own).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // Signed access tokens (`session.access_tokens: jwt`): ES256 signing and checking, and the
        // key set. swift-crypto comes with postgres-nio already; jwt-kit adds itself,
        // swift-certificates and swift-asn1 (AccountCore's Dependencies article says what they
        // cost).
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // The server's calls to sign-in providers (their discovery, keys, token and user
        // endpoints), and the HTTP client of the server's tests; Hummingbird's own package
        // needs it too.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .systemLibrary(name: "CSodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CZxcvbn", providers: [.apt(["libzxcvbn-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLMDB", providers: [.apt(["liblmdb-dev"])]),
        // Other systems' password hashes, verified and never written: libxcrypt's crypt(3) for
        // bcrypt and the sha512/sha256/md5-crypt family, OpenSSL's libcrypto for the digests under
        // PBKDF2 and the AES of Firebase's scrypt (its low-level functions only: COpenSSLCrypto/shim.h).
        .systemLibrary(name: "CXCrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "COpenSSLCrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "AccountCore", swiftSettings: strict),
        // Keeps Argon2id's 19 MiB working memory mapped between hashes (see its source for why).
        .target(name: "CArgon2Memory", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "AccountCrypto",
            dependencies: ["AccountCore", "CSodium", "CZxcvbn", "CArgon2Memory", "CXCrypt", "COpenSSLCrypto"],
            swiftSettings: strict
        ),
        // What a backend author needs, and nothing heavier: it depends on the domain alone.
        .target(name: "AccountBackendKit", dependencies: ["AccountCore"], swiftSettings: strict),
        .target(name: "MemoryBackend", dependencies: ["AccountCore", "AccountBackendKit"], swiftSettings: strict),
        // Durable files (atomic replace, fsync), file locks, the queue blocking file work runs on,
        // POSIX errors as AccountError, strict UTF-8 and whole-input reads: for the file
        // backends, the export format and the CLI.
        .target(name: "DurableFiles", dependencies: ["AccountCore", "AccountBackendKit"], swiftSettings: strict),
        // JSON text: the writer (`JSONValue`) and the records' JSON fields, for the export format,
        // the JSON store, the CLI's `--json` replies and the server's bodies and log lines.
        .target(name: "AccountJSON", dependencies: ["AccountCore"], swiftSettings: strict),
        // Child processes started with posix_spawn, a wait for one's exit that sleeps, and writing
        // its input: for the conformance suite's multi-process checks and the tests.
        .target(name: "ChildProcesses", swiftSettings: strict),
        // `accounts serve`'s settings (`ServerSettings`, with their defaults), and the IP
        // addresses, CIDR blocks and web origins they list: what the settings loader fills in and
        // the routes take whole, without the HTTP stack.
        .target(name: "AccountServerSettings", swiftSettings: strict),
        .target(
            name: "JSONFileBackend",
            dependencies: [
                "AccountCore", "AccountBackendKit", "DurableFiles", "AccountJSON",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SQLiteBackend",
            dependencies: [
                "AccountCore", "AccountBackendKit", "DurableFiles", "CSQLite",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LMDBBackend",
            dependencies: [
                "AccountCore", "AccountBackendKit", "DurableFiles", "CLMDB",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "PostgresBackend",
            dependencies: [
                "AccountCore", "AccountBackendKit",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountOperations",
            dependencies: ["AccountCore", "AccountCrypto", "DurableFiles", "AccountJSON", "CSQLite"],
            swiftSettings: strict
        ),
        .target(
            name: "AccountConformance",
            dependencies: ["AccountCore", "AccountBackendKit", "DurableFiles", "ChildProcesses"],
            swiftSettings: strict
        ),
        // The standard backends' fixtures for the suite, apart from the backends themselves so
        // that a program that embeds a backend never links the suite.
        .target(
            name: "StandardBackendFixtures",
            dependencies: [
                "AccountCore", "AccountBackendKit", "AccountConformance", "SQLiteBackend", "LMDBBackend",
                "JSONFileBackend",
                .target(name: "PostgresBackend", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ],
            swiftSettings: strict
        ),
        // The one place that lists the built-in backends.
        .target(
            name: "StandardBackends",
            dependencies: [
                "AccountBackendKit", "JSONFileBackend", "SQLiteBackend", "LMDBBackend",
                .target(name: "PostgresBackend", condition: .when(traits: ["PostgreSQL"])),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountSettings",
            dependencies: [
                "AccountCore", "AccountBackendKit", "AccountCrypto", "DurableFiles", "AccountJSON",
                "AccountServerSettings",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        // Mail: a submission client on SwiftNIO and the outbox's sender (no Swift SMTP client
        // exists in the mirror).
        .target(
            name: "AccountMail",
            dependencies: [
                "AccountCore", "AccountServerSettings",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountTokens",
            dependencies: [
                "AccountCore", "AccountCrypto", "AccountJSON", "DurableFiles",
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountProviders",
            dependencies: [
                "AccountCore", "AccountCrypto", "AccountServerSettings",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountServer",
            dependencies: [
                "AccountCore", "AccountCrypto", "AccountJSON", "AccountProviders", "AccountServerSettings",
                "DurableFiles",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict,
            // `/openapi.json` serves docs/openapi.json, the API document people edit.
            plugins: ["EmbedOpenAPIDocument"]
        ),
        // Embeds docs/openapi.json in AccountServer at build time (a few seconds on a clean build).
        .plugin(name: "EmbedOpenAPIDocument", capability: .buildTool(), dependencies: ["embed-text"]),
        // Embeds the commit built from in AccountsCLI, for `accounts --version`.
        .plugin(name: "EmbedBuildCommit", capability: .buildTool(), dependencies: ["embed-text"]),
        .executableTarget(name: "embed-text", path: "Plugins/EmbedText", swiftSettings: strict),
        .target(
            name: "AccountWeb",
            dependencies: [
                "AccountCore", "AccountCrypto", "AccountProviders", "AccountServer", "AccountServerSettings",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AccountsCLI",
            dependencies: [
                "AccountCore", "AccountCrypto", "AccountConformance", "AccountBackendKit", "AccountSettings",
                "AccountOperations", "DurableFiles", "AccountJSON", "AccountServerSettings",
                .target(name: "AccountServer", condition: .when(traits: ["Server"])),
                .target(name: "AccountWeb", condition: .when(traits: ["Server"])),
                .target(name: "AccountMail", condition: .when(traits: ["Server"])),
                .target(name: "AccountTokens", condition: .when(traits: ["Server"])),
                .target(name: "AccountProviders", condition: .when(traits: ["Server"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            // `accounts --version` names the commit of a development build.
            plugins: ["EmbedBuildCommit"]
        ),
        .executableTarget(
            name: "accounts", dependencies: ["AccountsCLI", "StandardBackends", "StandardBackendFixtures"],
            swiftSettings: strict,
            linkerSettings: [.unsafeFlags(startUpLinking, .when(platforms: [.linux]))]),
        .target(
            name: "AccountsBench",
            dependencies: [
                "AccountCore", "AccountCrypto", "AccountBackendKit", "AccountConformance", "AccountSettings", "CSodium",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                // `serve-raw-postgres`, the yardstick of signed-in reads on PostgreSQL (with Server).
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "accounts-bench", dependencies: ["AccountsBench", "StandardBackends", "StandardBackendFixtures"],
            swiftSettings: strict),
        .executableTarget(
            name: "accounts-torture", dependencies: ["AccountCore", "StandardBackends"], swiftSettings: strict),
        // Tests, split by layer (`swift test --filter AccountCoreTests` and so on), over two
        // helper targets: one that links no backend, one that names the standard backends.
        .target(
            name: "AccountTestSupport",
            dependencies: [
                "AccountCore", "AccountCrypto", "AccountBackendKit", "AccountConformance", "DurableFiles",
                "ChildProcesses",
            ],
            path: "Tests/AccountTestSupport",
            swiftSettings: strict
        ),
        .target(
            name: "BackendTestSupport",
            dependencies: [
                "AccountTestSupport", "AccountCore", "AccountBackendKit", "AccountConformance", "StandardBackends",
                "StandardBackendFixtures", "JSONFileBackend",
                "SQLiteBackend", "LMDBBackend", "CSQLite", "CLMDB",
                .target(name: "PostgresBackend", condition: .when(traits: ["PostgreSQL"])),
            ],
            path: "Tests/BackendTestSupport",
            swiftSettings: strict
        ),
        // glibc's count of small blocks in use, for the tests that check a loop leaves none behind.
        .target(name: "CMallocStatistics", path: "Tests/CMallocStatistics"),
        // The domain rules, the crypto and the services, over the in-memory backend: no store
        // engine, no SwiftNIO.
        .testTarget(
            name: "AccountCoreTests",
            dependencies: [
                "AccountTestSupport", "AccountCore", "AccountCrypto", "AccountBackendKit", "AccountOperations",
                "DurableFiles", "AccountJSON", "MemoryBackend",
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        // Each backend on its own: engines, files, crashes, faults, several processes.
        .testTarget(
            name: "AccountMailTests",
            dependencies: [
                "AccountMail", "AccountCore", "AccountCrypto", "AccountTestSupport", "MemoryBackend",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BackendTests",
            dependencies: [
                "AccountTestSupport", "BackendTestSupport", "AccountCore", "AccountCrypto", "AccountBackendKit",
                "AccountConformance", "StandardBackends", "SQLiteBackend", "LMDBBackend", "JSONFileBackend",
                "DurableFiles", "AccountJSON", "CSQLite", "CMallocStatistics", "ChildProcesses",
                "StandardBackendFixtures",
                "accounts", "accounts-torture",
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        // The conformance suite over every backend, the memory backend included.
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "AccountTestSupport", "BackendTestSupport", "AccountCore", "AccountBackendKit", "AccountConformance",
                "MemoryBackend", "StandardBackends", "StandardBackendFixtures",
                .target(name: "PostgresBackend", condition: .when(traits: ["PostgreSQL"])),
                "accounts",
            ],
            swiftSettings: strict
        ),
        // The settings on their own: layers, keys, errors naming the key, the documented reference.
        .testTarget(
            name: "AccountSettingsTests",
            dependencies: [
                "AccountTestSupport", "BackendTestSupport", "AccountCore", "AccountCrypto", "AccountBackendKit",
                "AccountSettings", "AccountServerSettings", "StandardBackends",
                .target(name: "PostgresBackend", condition: .when(traits: ["PostgreSQL"])),
            ],
            swiftSettings: strict
        ),
        // The operator's module on its own: the importers over each system's own export.
        .testTarget(
            name: "AccountOperationsTests",
            dependencies: [
                "AccountTestSupport", "AccountConformance", "AccountCore", "AccountCrypto", "AccountOperations",
                "MemoryBackend",
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        // The CLI end to end: commands, scenarios on every backend, the terminal app, transfer,
        // the bench harness.
        .testTarget(
            name: "AccountsCLITests",
            dependencies: [
                "AccountTestSupport", "BackendTestSupport", "AccountCore", "AccountCrypto", "AccountBackendKit",
                "AccountConformance", "AccountOperations", "AccountSettings", "StandardBackends", "DurableFiles",
                "ChildProcesses", "CSQLite", "StandardBackendFixtures",
                .target(name: "PostgresBackend", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                "accounts", "accounts-bench", "accounts-torture",
            ],
            exclude: ["Scenarios"],
            swiftSettings: strict
        ),
        // The HTTP service: the real server on a free loopback port, driven over HTTP.
        .testTarget(
            name: "AccountServerTests",
            dependencies: [
                "AccountTestSupport", "BackendTestSupport", "AccountCore", "AccountCrypto", "AccountBackendKit",
                "AccountServer", "AccountWeb", "StandardBackends", "MemoryBackend", "DurableFiles", "CMallocStatistics",
                "AccountServerSettings", "ChildProcesses", "AccountTokens", "AccountProviders",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                "accounts",
            ],
            swiftSettings: strict
        ),
    ]
)
