#!/usr/bin/env bash
# make bench-import: moving users in from another system against loading this store's own
# export, N users (default 1,000,000) into an empty SQLite store, measured side by side by
# hyperfine in one run on the release build (bench/lib/release-build.sh).
#
# The source is a Django `dumpdata auth.user` file of N users (bench/lib/django_users.py), all
# with one PBKDF2 hash; `accounts import --from django` of it makes the store whose
# `accounts export` is the own-format file of the same users. Each timed run starts from no
# store. Targets: the foreign import takes at most 2x the own-format import, and at most
# 256 MB at its peak (both read their file a record at a time, twice: to check every record
# before writing, then to store them; peak memory is reported for both).
#
# Knobs: N=1000000, RUNS=3; BENCH_BUILD=debug for a smoke run (scripts/test.sh runs one on 2,000
# users), whose figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/release-build.sh

N=${N-1000000}
RUNS=${RUNS-3}

./scripts/install-dependencies.sh --bench
release_build accounts
accounts="$bin/accounts"
work=$(mktemp -d "${TMPDIR:-/tmp}/accounts-import-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"
unset ACCOUNTS_CONFIG

echo "== sources of $N users"
python3 bench/lib/django_users.py "$N" >"$work/users.json"
"$accounts" import --from django --input "$work/users.json" --store "$work/made.sqlite" >/dev/null
"$accounts" export --store "$work/made.sqlite" --output "$work/users.jsonl" >/dev/null
rm -f "$work"/made.sqlite*
printf 'django dumpdata: %s MB; own export: %s MB\n' "$(( $(stat -c %s "$work/users.json") / 1000000 ))" \
    "$(( $(stat -c %s "$work/users.jsonl") / 1000000 ))"

peak() { # peak MB of one run of the command
    /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%d", $1 / 1024 }'
}
rm -f "$work"/peak.sqlite*
own_peak=$(peak "$accounts" import --input "$work/users.jsonl" --store "$work/peak.sqlite")
rm -f "$work"/peak.sqlite*
django_peak=$(peak "$accounts" import --from django --input "$work/users.json" --store "$work/peak.sqlite")
rm -f "$work"/peak.sqlite*

echo "== hyperfine, $RUNS runs each"
hyperfine -N --runs "$RUNS" --export-json "$work/hyperfine.json" \
    --prepare "rm -f $work/own.sqlite $work/own.sqlite-wal $work/own.sqlite-shm" \
    -n own "$accounts import --input $work/users.jsonl --store $work/own.sqlite" \
    --prepare "rm -f $work/django.sqlite $work/django.sqlite-wal $work/django.sqlite-shm" \
    -n django "$accounts import --from django --input $work/users.json --store $work/django.sqlite" >/dev/null
python3 - "$work/hyperfine.json" "$N" "$own_peak" "$django_peak" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
n, peaks = int(sys.argv[2]), {"own": sys.argv[3], "django": sys.argv[4]}
own = results["own"]["median"]
print(f"| import of {n:,} users into SQLite | median s | users/s | vs own format | peak MB |")
print("|---|---|---|---|---|")
for name, label in [("own", "`accounts import` (own export)"), ("django", "`accounts import --from django`")]:
    median = results[name]["median"]
    print(f"| {label} | {median:.1f} | {n / median:,.0f} | {median / own:.2f}x | {peaks[name]} |")
PY
