#!/usr/bin/env bash
# Runs every test: installs what is missing, checks formatting, builds with warnings as errors
# (each own target sets treatAllWarnings(as: .error)), then the whole Swift Testing suite.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-dependencies.sh
echo "== swift format lint"
swift format lint --strict --recursive --parallel Sources Tests Package.swift
echo "== swift build --build-tests"
swift build --build-tests
echo "== swift test"
swift test
