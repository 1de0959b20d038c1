#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each one.
#
#   scripts/fuzz.sh                 # 1,000,000 executions per target (minutes)
#   scripts/fuzz.sh --runs 5000000  # more
#   scripts/fuzz.sh --smoke         # 20 seconds per target (what CI runs)
#
# Each target starts from a copy of its seed corpus in Fuzz/corpus/<target> (the committed
# seeds are never modified). A crash stops the run and leaves the input in fuzz-artifacts/;
# turn it into a regression test before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."

limit=(-runs=1000000)
case "${1:-}" in
    --smoke) limit=(-max_total_time=20) ;;
    --runs) limit=(-runs="${2:?--runs needs a number}") ;;
    "") ;;
    *) echo "usage: scripts/fuzz.sh [--smoke | --runs N]" >&2; exit 2 ;;
esac

# SwiftPM also builds AccountStore's plugin tool (embed-text, which embeds docs/openapi.json in
# AccountServer) for the host with these flags, where libFuzzer's own main clashes with the
# tool's: it prints that link error and goes on. No fuzz target uses the plugin (AccountServer
# is not among their dependencies), and the build's exit status is the fuzz targets'.
swift build --package-path Fuzz -c release --sanitize=fuzzer
bin=$(swift build --package-path Fuzz -c release --sanitize=fuzzer --show-bin-path)
mkdir -p fuzz-artifacts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for pair in FuzzValidators:validators FuzzJSONStore:json-store FuzzExportReader:export-reader; do
    target=${pair%%:*}
    corpus=${pair#*:}
    mkdir -p "$work/$corpus"
    cp Fuzz/corpus/"$corpus"/* "$work/$corpus"/
    echo "== $target (${limit[*]})"
    mkdir -p "$work/tmp-$corpus"
    TMPDIR="$work/tmp-$corpus" "$bin/$target" "${limit[@]}" -artifact_prefix=fuzz-artifacts/"$target"- \
        "$work/$corpus" 2>&1 | grep -E '^(Done|==[0-9]+==|SUMMARY|INFO: Running)|ERROR|Deadly' || true
    # A target that writes its input to a file removes it: nothing may pile up in the real /tmp.
    left=$(ls -A "$work/tmp-$corpus")
    if [ -n "$left" ]; then
        echo "error: $target left files in its TMPDIR: $left" >&2
        exit 1
    fi
    if ls fuzz-artifacts/"$target"-* >/dev/null 2>&1; then
        echo "error: $target found a crash; see fuzz-artifacts/" >&2
        exit 1
    fi
done
