#!/usr/bin/env bash
# Quick start: install what is missing, build, and run accounts on the embedded default backend:
# the conformance suite against a scratch store, then the start screen of your default store.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-dependencies.sh
swift build --product accounts   # only what it runs: not the bench, the torture tool or the tests
bin="$(swift build --show-bin-path)/accounts"

echo "== accounts backends"
"$bin" backends
echo "== accounts verify   (the conformance suite, on a scratch store)"
"$bin" verify
echo "== accounts start    (your store: \${XDG_DATA_HOME:-~/.local/share}/accounts/)"
"$bin" start
echo
# The walkthrough calls plain `accounts`: say how to get that, in this shell or for good.
echo "To call it as plain accounts in this shell:  alias accounts='$bin'"
echo "Or install it (release build, manual page, completions):  make install PREFIX=~/.local"
echo "Next: $bin signup --email yourid@example.com --nickname YOU"
