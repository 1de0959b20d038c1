// swift-tools-version: 6.0
// The yardstick of `accounts --version` in `make bench-cli`: the least a Swift program that
// imports Foundation pays to start, print one line and exit, built with the same flags as
// `accounts` (bench/lib/release-build.sh: release, the standard library and Foundation linked
// statically).
import PackageDescription

let package = Package(name: "hello", targets: [.executableTarget(name: "hello")])
