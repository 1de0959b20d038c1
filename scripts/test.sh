#!/usr/bin/env bash
# Runs every test: installs what is missing, checks formatting, builds with warnings as errors
# (each own target sets treatAllWarnings(as: .error)), runs a short smoke of each fuzz target,
# then the whole Swift Testing suite (last, so its summary closes the output).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-dependencies.sh
echo "== swift format lint"
swift format lint --strict --recursive --parallel Sources Tests Package.swift Fuzz/Sources Fuzz/Package.swift
echo "== swift build --build-tests"
swift build --build-tests
echo "== fuzz smoke (20 s per target)"
./scripts/fuzz.sh --smoke
echo "== swift test"
swift test
