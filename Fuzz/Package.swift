// swift-tools-version: 6.2
// libFuzzer targets for AccountStore's parsers. Build and run with ../scripts/fuzz.sh.
import PackageDescription

// No main: libFuzzer brings its own and calls LLVMFuzzerTestOneInput.
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"]), .treatAllWarnings(as: .error)]

let package = Package(
    name: "AccountStoreFuzz",
    dependencies: [.package(name: "AccountStore", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzValidators",
            dependencies: [
                .product(name: "AccountCore", package: "AccountStore"),
                .product(name: "AccountCrypto", package: "AccountStore"),
            ],
            swiftSettings: fuzzer),
        .executableTarget(
            name: "FuzzJSONStore",
            dependencies: [
                .product(name: "AccountCore", package: "AccountStore"),
                .product(name: "JSONFileBackend", package: "AccountStore"),
            ],
            swiftSettings: fuzzer),
        .executableTarget(
            name: "FuzzExportReader",
            dependencies: [
                .product(name: "AccountCore", package: "AccountStore"),
                .product(name: "AccountOperations", package: "AccountStore"),
            ],
            swiftSettings: fuzzer),
    ]
)
