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
# The SQLite and LMDB calls run in ROUNDS hyperfine runs, each with the reference: hyperfine
# runs one command's runs back to back, so a burst of load from the machine's other tenants lands
# on some commands and not others (one run here had `whoami` 11.9 ms and `start`, the same work,
# 9.7 ms). Each ratio is taken within its round, and the table shows the median over the rounds
# and their range.
#
# Knobs: N=100000, ROUNDS=5 and RUNS=15 per round (SQLite, LMDB, --help), JSON_RUNS=5 (one
# round: its margins are wide); BENCH_BUILD=debug for a smoke run of this script
# (scripts/test.sh runs one on 300 users). The machine is shared and noisy: read the ratios,
# not the absolute times.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/release-build.sh

N=${N-100000}
ROUNDS=${ROUNDS-5}
RUNS=${RUNS-15}
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
# SQLite and LMDB in each round's one run, beside the one reference, so their ratios share its
# conditions.
for round in $(seq "$ROUNDS"); do
    run "embedded-$round" "$RUNS" "sqlite3 $work/users.sqlite 'select count(*) from users'" "$accounts --help" \
        "${sqlite_calls[@]}" "${lmdb_calls[@]}"
done
run json "$JSON_RUNS" "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $work/users.json" \
    "jq length $work/users.json" "${json_calls[@]}"

python3 - "$work" "$N" "$work/" "${BENCH_BUILD:-release}" "$ROUNDS" <<'EOF'
import json, statistics, sys
work, n, prefix, build, rounds = sys.argv[1:6]
print(f"\nOne process per call, {n} users, {build} build. ms = median of a command's runs (the median")
print(f"over the rounds); ratio = that / the same round's first line: the median over {rounds} rounds,")
print("then the lowest and highest round (JSON: one round)")
if build == "debug":
    print("  (a debug build: this run checks the script, its figures mean nothing)")

def name(command):
    words = command.replace(prefix, "").replace(work, "").split()
    return " ".join("accounts" if w.endswith("/accounts") else w for w in words)

for group in ([f"embedded-{r}" for r in range(1, int(rounds) + 1)], ["json"]):
    runs = [json.load(open(f"{work}/{round}.json"))["results"] for round in group]
    for index, result in enumerate(runs[0]):
        medians = [statistics.median(run[index]["times"]) for run in runs]
        ratios = [statistics.median(run[index]["times"]) / statistics.median(run[0]["times"]) for run in runs]
        spread = f"{min(ratios):5.2f}-{max(ratios):4.2f}" if len(runs) > 1 else " " * 10
        print(f"  {statistics.median(medians) * 1000:9.1f}  {statistics.median(ratios):5.2f}x  {spread}  {name(result['command'])}")
EOF
