#!/usr/bin/env bash
# Runs every test: installs what is missing, checks formatting, builds with warnings as errors
# (each own target sets treatAllWarnings(as: .error)), runs a short smoke of each fuzz target,
# builds and drives the outside backend in Examples/CustomBackend, then the whole Swift Testing
# suite (last, so its summary closes the output) with a throwaway
# PostgreSQL server on a loopback port, so the PostgreSQL cases run too.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-dependencies.sh --test-server
echo "== swift format lint"
swift format lint --strict --recursive --parallel Sources Tests Package.swift Fuzz/Sources Fuzz/Package.swift \
    Examples/CustomBackend/Sources Examples/CustomBackend/Tests Examples/CustomBackend/Package.swift
echo "== swift build --build-tests"
swift build --build-tests
echo "== documentation: every DocC catalog, warnings as errors"
./scripts/docs.sh
echo "== README walkthrough against a fresh run"
./scripts/walkthrough.sh --check
echo "== fuzz smoke (20 s per target)"
./scripts/fuzz.sh --smoke
echo "== an outside backend: Examples/CustomBackend"
./scripts/example-backend.sh
echo "== I/O faults and crashes: every 7th (5th) file system call of each mutating command, per backend"
# The full sweeps (every call; 30 random runs each) are scripts/fault-sweep.sh --random 30,
# scripts/fault-sweep.sh --kill and scripts/fault-sweep.sh --power-cut.
./scripts/fault-sweep.sh --every 7 --random 2
./scripts/fault-sweep.sh --kill --every 5
./scripts/fault-sweep.sh --power-cut --every 3 --commands "signup withdraw passwd"
echo "== PostgreSQL test server"
# The variables (the random password among them) go straight into the environment, unprinted.
server_env=$(./scripts/postgres-test-server.sh start)
eval "$server_env"
trap './scripts/postgres-test-server.sh stop "$TEST_POSTGRES_FOLDER"' EXIT
echo "started on 127.0.0.1:$TEST_POSTGRES_PORT in $TEST_POSTGRES_FOLDER"
echo "== swift test"
swift test
