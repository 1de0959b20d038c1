#!/usr/bin/env bash
# make bench: the Swift backends (accounts-bench, release build) against the least work each
# engine needs (bench/baselines: one table or database keyed by email) and against the
# project's raw-engine reference (bench/raw/raw_bench.c: the store's own layout and settings),
# same workload, interleaved, in one run.
#
# Knobs: NS="10000 100000" (SQLite and LMDB), JSON_N=10000, REPS=3, DATA=/tmp/accounts-bench-data
# Prints the median table with Swift/raw ratios; writes bench/results/{raw,table}-<stamp>.
set -euo pipefail
cd "$(dirname "$0")/.."

NS=${NS-"10000 100000"}
JSON_N=${JSON_N-10000}
REPS=${REPS-3}
DATA=${DATA-/tmp/accounts-bench-data}

./scripts/install-dependencies.sh
mkdir -p bench/results "$DATA"
cc -O2 -Wall -Wextra -Werror -o bench/raw/raw_bench bench/raw/raw_bench.c -lsqlite3 -llmdb
# The shared baselines are built with their own flags (they are kept unchanged).
cc -O2 -Wall -Wextra -o bench/baselines/bench_sqlite bench/baselines/bench_sqlite.c -lsqlite3
cc -O2 -Wall -Wextra -o bench/baselines/bench_lmdb bench/baselines/bench_lmdb.c -llmdb
. bench/lib/release-build.sh
release_build accounts-bench
swift_bench="$bin/accounts-bench"

stamp=$(date +%Y%m%d-%H%M%S)
raw="bench/results/raw-$stamp.tsv"
table="bench/results/table-$stamp.txt"
: >"$raw"

run() { # impl command...
    local impl=$1; shift
    rm -rf "${DATA:?}"/*
    "$@" | sed "s/^/$impl\t/" >>"$raw"
    sync
}

baseline() { # engine N: a baseline run, its lines in the bench's format
    local engine=$1 n=$2
    rm -rf "${DATA:?}"/*
    if [ "$engine" = sqlite ]; then
        bench/baselines/bench_sqlite "$n" full "$DATA"
    else
        bench/baselines/bench_lmdb "$n" sync "$DATA"
    fi 2>/dev/null | awk -F'\t' -v OFS='\t' '$1 == "RESULT" {
        p50 = $8 == "-" ? 0 : $8; p99 = $9 == "-" ? 0 : $9
        print "baseline", "RESULT", $2, $3, "full", $5, $6, $7, sprintf("%.2f", $7 * 1e6 / $6), p50, p99, 0 }' >>"$raw"
    sync
}

for rep in $(seq 1 "$REPS"); do
    echo "== rep $rep/$REPS" >&2
    for n in $NS; do
        for config in "sqlite full" "lmdb full"; do
            set -- $config
            echo "   $1 $2 N=$n" >&2
            baseline "$1" "$n"
            run raw bench/raw/raw_bench "$1" "$2" "$n" "$DATA"
            run swift "$swift_bench" workload --backend "$1" --mode "$2" -n "$n"
        done
    done
    if [ -n "$JSON_N" ]; then
        echo "   json N=$JSON_N" >&2
        run raw bench/raw/raw_bench json default "$JSON_N" "$DATA"
        run swift "$swift_bench" workload --backend json -n "$JSON_N" --phases AT
    fi
done
"$swift_bench" hash --iterations 9 | sed "s/^/swift\t/" >>"$raw"

{
    echo "AccountStore benchmark — $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(uname -r)"
    echo "median of $REPS interleaved runs; us/op = mean per operation; lower is better"
    echo "base = the engine baseline (bench/baselines), raw = the store's layout in C (bench/raw), swift = the backend"
    echo "swift/base = all the store adds (targets: reads and imports <= 2, durable writes <= 1.15);"
    echo "layout = raw/base (what the layout makes the engine do); swift/raw = what Swift adds on top"
    echo
    awk -F'\t' -f bench/aggregate.awk "$raw"
} | tee "$table"
echo "raw lines: $raw" >&2
