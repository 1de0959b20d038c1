// swift-tools-version: 6.0
// The floor under `accounts whoami` in `make bench-cli`: the least a Swift command-line tool on
// swift-argument-parser pays to take whoami's options, count a SQLite store's users and print the
// number, built with the same flags as `accounts` (bench/lib/release-build.sh) and linking SQLite
// the same way (statically). The sqlite3 shell does the same count without Swift.
import PackageDescription

let package = Package(
    name: "argument-parser-count",
    dependencies: [.package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")],
    targets: [
        .systemLibrary(name: "CSQLiteCount"),
        .executableTarget(
            name: "argument-parser-count",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser"), "CSQLiteCount"]),
    ]
)
