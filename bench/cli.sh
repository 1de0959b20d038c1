#!/usr/bin/env bash
# make bench-cli: what one `accounts` call costs, as operators script it (one process per call),
# against the least a process doing the same read needs, measured side by side by hyperfine -N
# (no shell in between) in one run.
#
# Stores of N users (default 100,000, each with a session; made by `accounts import` of a
# generated export) in SQLite, LMDB and JSON, plus one more user whose session file the calls
# use. Commands: `accounts users count`, `accounts whoami`, `accounts start` on each backend,
# and `accounts --help` (start-up alone). References: the sqlite3 shell counting the SQLite
# store's users (for SQLite and LMDB), CPython's json.load of the JSON store (C parser) and
# `jq length`. Release build with the standard library and Foundation linked statically
# (bench/lib/release-build.sh).
#
# Knobs: N=100000, RUNS=30 (SQLite, LMDB, --help), JSON_RUNS=5; BENCH_BUILD=debug for a smoke
# run of this script (scripts/test.sh runs one on 300 users). The machine is shared and noisy:
# read the ratios within one run, not the absolute times.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/release-build.sh

N=${N-100000}
RUNS=${RUNS-30}
JSON_RUNS=${JSON_RUNS-5}

./scripts/install-dependencies.sh --bench
release_build accounts
accounts="$bin/accounts"
work=$(mktemp -d "${TMPDIR:-/tmp}/accounts-cli-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"
unset ACCOUNTS_CONFIG
password=Tangerine-Kayak-42

echo "== stores of $N users (import of a generated export)"
printf '%s\n%s\n' "$password" "$password" | "$accounts" signup --store "$work/template.sqlite" \
    --email template7@example.com --nickname 템플릿 --password-stdin --session-file "$work/template.session" >/dev/null
"$accounts" export --store "$work/template.sqlite" --with-sessions --output "$work/template.jsonl" >/dev/null
python3 scripts/faults/large_export.py "$work/template.jsonl" "$work/users.jsonl" "$N"
for backend in sqlite lmdb json; do
    store="$work/users.$backend"
    start=$EPOCHREALTIME
    "$accounts" import --backend "$backend" --store "$store" --input "$work/users.jsonl" >/dev/null
    printf '%s\n%s\n' "$password" "$password" | "$accounts" signup --backend "$backend" --store "$store" \
        --email reader77@example.com --nickname 읽기 --password-stdin --session-file "$work/$backend.session" >/dev/null
    printf '%-7s %s users, %s MB, imported in %.1f s\n' "$backend" "$("$accounts" users count --backend "$backend" --store "$store")" \
        "$(( $(stat -c %s "$store") / 1000000 ))" "$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
done

calls() { # calls BACKEND: the three reads of one backend
    local backend=$1 store="$work/users.$1" session="$work/$1.session"
    printf '%s\n' \
        "$accounts users count --backend $backend --store $store" \
        "$accounts whoami --backend $backend --store $store --session-file $session" \
        "$accounts start --backend $backend --store $store --session-file $session"
}

run() { # run NAME RUNS REFERENCE... -- COMMAND...: one hyperfine run, its JSON kept for the table
    local name=$1 runs=$2
    shift 2
    local commands=()
    for command in "$@"; do [ "$command" = "--" ] || commands+=("$command"); done
    echo "== $name"
    hyperfine -N --style basic --warmup 2 --runs "$runs" --export-json "$work/$name.json" "${commands[@]}" >/dev/null
}

mapfile -t sqlite_calls < <(calls sqlite)
mapfile -t lmdb_calls < <(calls lmdb)
mapfile -t json_calls < <(calls json)
# SQLite and LMDB in one run, beside the one reference, so their ratios share its conditions.
run embedded "$RUNS" "sqlite3 $work/users.sqlite 'select count(*) from users'" "$accounts --help" \
    "${sqlite_calls[@]}" "${lmdb_calls[@]}"
run json "$JSON_RUNS" "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $work/users.json" \
    "jq length $work/users.json" "${json_calls[@]}"

python3 - "$work" "$N" "$work/" "${BENCH_BUILD:-release}" <<'EOF'
import json, statistics, sys
work, n, prefix, build = sys.argv[1:5]
print(f"\nOne process per call, {n} users, {build} build, median of the runs (ms); ratio = median / the run's first line")
if build == "debug":
    print("  (a debug build: this run checks the script, its figures mean nothing)")
for name in ("embedded", "json"):
    results = json.load(open(f"{work}/{name}.json"))["results"]
    reference = statistics.median(results[0]["times"])
    for result in results:
        median = statistics.median(result["times"])
        command = result["command"].replace(prefix, "").replace(sys.argv[1], "")
        words = command.split()
        command = " ".join("accounts" if w.endswith("/accounts") else w for w in words)
        print(f"  {median * 1000:9.1f}  {median / reference:5.2f}x  {command}")
EOF
