#!/usr/bin/env bash
# Proof that a backend written outside this package plugs in: builds Examples/CustomBackend (a
# separate package depending on this one by path, PostgreSQL trait off), runs its Swift Testing
# target (the shared conformance suite on its journal backend), then drives its `accounts` (the
# whole CLI, standard backends plus the journal) and its `accounts-bench` from the outside.
set -euo pipefail
cd "$(dirname "$0")/../Examples/CustomBackend"

echo "== Examples/CustomBackend: swift build --build-tests"
swift build --build-tests
echo "== Examples/CustomBackend: swift test (the conformance suite on the journal backend)"
swift test 2>&1 | grep -vE '^(◇|↳)|^Test Suite|Executed 0 tests'
bin="$(swift build --show-bin-path)"

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state"
unset ACCOUNTS_CONFIG
accounts() { "$bin/accounts" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_status() { # expect_status STATUS TEXT COMMAND...: the command exits STATUS and prints TEXT
    local want=$1 text=$2 out status
    shift 2
    set +e
    out=$("$@" 2>&1 </dev/null)
    status=$?
    set -e
    [ "$status" = "$want" ] || fail "$* exited $status, expected $want: $out"
    grep -qF -- "$text" <<<"$out" || fail "$* did not say '$text': $out"
    echo "ok: $* -> exit $status, '$text'"
}

echo "== the journal is one of the backends, chosen by --backend and by config"
accounts backends | tee "$home/backends.txt"
grep -q "journal" "$home/backends.txt" || fail "accounts backends does not list journal"
accounts verify --backend journal
# The shell's completion asks the program for backend names, so the journal is offered too.
accounts ---completion signup -- --backend 0 0 "" >"$home/completion.txt"
grep -qx "journal" "$home/completion.txt" || fail "completing --backend does not offer journal: $(cat "$home/completion.txt")"
# Its default traits are off, so no HTTP stack came along, and `accounts serve` is not there.
expect_status 2 "'serve' is not in this build of accounts: it was built without the package trait Server." "$bin/accounts" serve

echo "== its options are checked like the standard backends' (typed errors naming the key)"
expect_status 8 "journal.sync" env ACCOUNTS_JOURNAL_SYNC=sometimes "$bin/accounts" users count --backend journal
mkdir -p "$home/etc"
printf 'backend: journal\njournal:\n  path: j.journal\n  flush: always\n' >"$home/etc/unknown.yaml"
expect_status 8 "journal.flush" "$bin/accounts" users count --config "$home/etc/unknown.yaml"
printf 'backend: journal\njournal:\n  path: configured.journal\n  sync: full\n' >"$home/etc/journal.yaml"
printf 'Tangerine-Kayak-42\nTangerine-Kayak-42\n' | accounts signup --config "$home/etc/journal.yaml" \
    --email configured7@example.com --nickname 설정 --password-stdin --session-file "$home/s"
[ -s "$home/etc/configured.journal" ] || fail "the configured journal path was not used"
expect_status 0 "1" "$bin/accounts" users count --config "$home/etc/journal.yaml"

echo "== accounts config lists the journal's keys with who set them (--all: beside another backend)"
accounts config --config "$home/etc/journal.yaml" | tee "$home/config.txt"
grep -qE "^journal\.sync +full +config file$" "$home/config.txt" || fail "accounts config: journal.sync not from the file"
grep -qE "^journal\.path +$home/etc/configured\.journal +config file$" "$home/config.txt" ||
    fail "accounts config: journal.path not resolved against the file's folder"
ACCOUNTS_JOURNAL_SYNC=none accounts config --all >"$home/config-all.txt"
grep -qE "^journal\.sync +none +ACCOUNTS_JOURNAL_SYNC$" "$home/config-all.txt" ||
    fail "accounts config --all: journal.sync not from its variable"
expect_status 8 "journal.sync" env ACCOUNTS_JOURNAL_SYNC=sometimes "$bin/accounts" config --all

echo "== migrate from SQLite into the journal and back; log in on each"
printf 'Tangerine-Kayak-42\nTangerine-Kayak-42\n' |
    accounts signup --email leesoon7@example.com --nickname 이순신 --password-stdin
accounts migrate --to-backend journal --to-store "$home/copy.journal"
printf 'Tangerine-Kayak-42\n' |
    accounts login --backend journal --store "$home/copy.journal" --email leesoon7@example.com --password-stdin
accounts whoami --backend journal --store "$home/copy.journal" | tee "$home/whoami.txt"
grep -q "leesoon7@example.com" "$home/whoami.txt" || fail "whoami on the journal does not show the user"
accounts users list --backend journal --store "$home/copy.journal"
accounts doctor --backend journal --store "$home/copy.journal"
accounts migrate --backend journal --store "$home/copy.journal" --to-backend sqlite --to-store "$home/back.sqlite"
printf 'Tangerine-Kayak-42\n' |
    accounts login --backend sqlite --store "$home/back.sqlite" --email leesoon7@example.com --password-stdin

echo "== export from the journal, import into a new journal"
accounts export --backend journal --store "$home/copy.journal" --output "$home/all.jsonl"
accounts import --backend journal --store "$home/imported.journal" --input "$home/all.jsonl"
[ "$(accounts users count --backend journal --store "$home/imported.journal")" = "1" ] ||
    fail "the imported journal does not hold one user"

echo "== another backend refuses the journal's file as a store of another kind"
expect_status 7 "journal" "$bin/accounts" users count --backend sqlite --store "$home/copy.journal"

echo "== accounts-bench measures the journal like the standard backends"
"$bin/accounts-bench" workload --backend journal -n 200
echo "Examples/CustomBackend: all checks passed"
