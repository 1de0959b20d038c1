#!/usr/bin/env bash
# make bench-cli: what one `accounts` call costs, as operators script it (one process per call),
# against the least a process doing the same read needs, measured side by side by hyperfine -N
# (no shell in between) in one run.
#
# Stores of N users (default 100,000, each with a session; made by `accounts import` of a
# generated export) in SQLite, LMDB and JSON, plus one more user whose session file the calls
# use. Commands: `accounts users count`, `accounts whoami`, `accounts start` on each backend,
# and `accounts --version` and `--help` (start-up alone). References: the sqlite3 shell counting
# the SQLite store's users (for SQLite and LMDB), a static Swift hello (bench/reference/hello, for
# --version and --help), CPython's json.load of the JSON store (C parser) and `jq length`. The
# floor under them (bench/reference/argument-parser-count): a Swift tool on swift-argument-parser
# that takes whoami's options and counts the same users, and its --version; the table gives each
# call against it too, since no Swift CLI built on these parts can go below it. The
# binary `make install` installs: the release build with the standard library and Foundation
# linked statically (bench/lib/release-build.sh), debug info stripped as the install does; the
# hello is built and stripped the same way.
#
# The table is printed, and a release run saves it dated under bench/results/ (YYYY-MM-DD-HHMM-cli.md)
# and rewrites the README's speed line from it (bench/lib/cli_table.py; BENCH_SAVE=0 to only
# print).
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
work=$(mktemp -d "${TMPDIR:-/tmp}/accounts-cli-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
accounts="$bin/accounts"
release_build_package bench/reference/hello hello
hello="$bin/hello"
release_build_package bench/reference/argument-parser-count argument-parser-count
floor="$bin/argument-parser-count"
if [ "${BENCH_BUILD:-release}" = release ]; then
    cp "$accounts" "$hello" "$floor" "$work/"
    strip --strip-debug "$work/accounts" "$work/hello" "$work/argument-parser-count"
    accounts="$work/accounts" hello="$work/hello" floor="$work/argument-parser-count"
fi
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
# SQLite and LMDB in each round's one run, beside the references, so their ratios share its
# conditions.
for round in $(seq "$ROUNDS"); do
    run "embedded-$round" "$RUNS" "sqlite3 $work/users.sqlite 'select count(*) from users'" "$hello" \
        "$floor --version" "$floor count --backend sqlite --store $work/users.sqlite --session-file $work/sqlite.session" \
        "$accounts --version" "$accounts --help" \
        "${sqlite_calls[@]}" "${lmdb_calls[@]}"
done
run json "$JSON_RUNS" "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $work/users.json" \
    "jq length $work/users.json" "${json_calls[@]}"

save=()
if [ "${BENCH_BUILD:-release}" = release ] && [ "${BENCH_SAVE:-1}" = 1 ]; then save=(bench/results); fi
python3 bench/lib/cli_table.py table "$work" "$N" "${BENCH_BUILD:-release}" "$ROUNDS" "$RUNS" "${save[@]}"
