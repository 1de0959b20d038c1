#!/usr/bin/env bash
# Proof that an app embeds AccountStore beside its own package graph: Examples/App (a Hummingbird
# app mounting the API and the web pages over SQLite, with a route of its own that calls
# AccountService) pins swift-nio `exact: "2.101.2"`, as an app might, while AccountStore declares
# ranges. It resolves, builds with warnings as errors, and passes its own tests against a live
# server on a free loopback port.
set -euo pipefail
cd "$(dirname "$0")/../Examples/App"

echo "== Examples/App: swift build --build-tests"
swift build --build-tests
resolved=$(swift package show-dependencies --format json | python3 -c '
import json, sys
def walk(node):
    yield node
    for child in node.get("dependencies", []):
        yield from walk(child)
print(sorted({n["version"] for n in walk(json.load(sys.stdin)) if n["identity"] == "swift-nio"}))')
echo "swift-nio resolved to: $resolved"
[ "$resolved" = "['2.101.2']" ] || { echo "FAIL: swift-nio should resolve to the app's 2.101.2, got $resolved" >&2; exit 1; }
echo "== Examples/App: swift test"
swift test --skip-build 2>&1 | grep -vE '^(◇|↳)|^Test Suite|Executed 0 tests'
