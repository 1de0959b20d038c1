#!/usr/bin/env bash
# Injects I/O faults into every mutating command on the embedded backends and checks what each
# left behind (as SQLite's own I/O-error tests do):
#
#   scripts/fault-sweep.sh                 the full sweep: for each backend and command, fail the
#                                          k-th file system call of the command, for every k
#   scripts/fault-sweep.sh --every 10      a bounded sample: every 10th k (CI runs this)
#   --offset N                             with --every: start N calls (or changes) later, modulo
#                                          the step, so the samples with N = 0 .. step-1 together
#                                          make the whole sweep (CI takes N from its commit)
#   scripts/fault-sweep.sh --random 200    also 200 runs per command with each call failing at
#                                          5% (seeded, so a failure can be replayed)
#   --first-seed N                         with --random: seeds N, N+1, ... (default 1; CI takes
#                                          N from its commit, as --offset)
#   scripts/fault-sweep.sh --kill          crashes instead of faults: SIGKILL at the k-th file
#                                          system call; the store must then hold the state before
#                                          the command or the whole of its change, never a mix
#   scripts/fault-sweep.sh --unreachable   the store's disk goes away mid-command: the k-th file
#                                          system call fails and so does every later one (the
#                                          command's own rollback included); the command must
#                                          fail closed, and the store, once the disk is back, hold
#                                          the state before the command or, only when the command
#                                          said it had committed, the whole change
#   scripts/fault-sweep.sh --power-cut     power cuts: records every change and fsync a command
#                                          makes, rebuilds the states a power cut after each change
#                                          could leave (scripts/faults/power_cut.py: synced bytes
#                                          and folder entries survive; unsynced ones all lost, all
#                                          kept, or kept for one file or folder only, or for all
#                                          but one), and requires the old state or the whole
#                                          change, and the change once the command has returned
#   --variants lost                        with --power-cut: only the state where every unsynced
#                                          change is lost (fewer states; CI's sample)
#   --durability relaxed|none              with --power-cut: the backends' faster modes
#                                          (sqlite.synchronous normal; lmdb.sync nometasync, or
#                                          none), which may lose the last commits (reported, not
#                                          failed)
#   scripts/fault-sweep.sh --fiu 50        also 50 runs per command under libfiu's fiu-run (Debian
#                                          fiu-utils): fsync, fdatasync, pread, pwrite, rename,
#                                          unlink and the other folder calls fail at random in the
#                                          whole process (not read, write, open or mmap, which
#                                          would fail standard input and the runtime's own files)
#   options: --probability P (random faults, default 0.05), --backends "sqlite lmdb json",
#            --commands "signup login ...", --accounts PATH
#
# `upgrade` starts from a store of format 1 (the committed fixture of each backend,
# Tests/BackendTests/Fixtures) and brings it to this build's format: whatever happens, the store
# is then the old one (a clean `accounts upgrade` of it gives exactly what an undisturbed upgrade
# gives) or the whole new one, never a mix; once the command has returned, the new one.
#
# `import-large` imports 2,500 users (three of the importer's batches): a failure or a crash may
# leave whole batches, each user with its session, and the same import with --merge must then
# add exactly the rest; it is tried at 60 points spread over its calls (--large-points N), not
# at every one.
#
# Faults come from scripts/faults/fault_shim.c, preloaded into `accounts`: open, read/pread,
# write/pwrite, fsync/fdatasync, ftruncate, flock, mmap, rename, link, unlink and mkdir fail
# (EIO, or ENOSPC for writes; a read or write may come back short instead) — only on files under
# the run's own folder, so start-up and standard input are never touched. After each run, with
# no faults: the output is one JSON object with a typed code (a crash, a hang or untyped output
# fails the sweep); no fault is reported as `store_corrupted` (none can damage a store); a
# reported failure left the store exactly as it was (every user and session, compared through
# `accounts export --with-sessions`), unless the message says what changed (and never both
# that the change was rolled back and that it may have taken effect); a reported success
# did what the command promises; and `accounts doctor` finds the store sound.
set -euo pipefail
cd "$(dirname "$0")/.."

every=1
offset=0
random=0
first_seed=1
kill=0
unreachable=0
power_cut=0
fiu=0
probability=0.05
durability=full
variants=all
large_points=60
backends="sqlite lmdb json"
commands="signup login login-failure logout passwd withdraw import import-large migrate doctor-fix upgrade"
accounts=""
while [ $# -gt 0 ]; do
    case "$1" in
    --every) every=$2; shift 2 ;;
    --offset) offset=$2; shift 2 ;;
    --random) random=$2; shift 2 ;;
    --first-seed) first_seed=$2; shift 2 ;;
    --kill) kill=1; shift ;;
    --unreachable) unreachable=1; shift ;;
    --fiu) fiu=$2; shift 2 ;;
    --probability) probability=$2; shift 2 ;;
    --power-cut) power_cut=1; shift ;;
    --durability) durability=$2; shift 2 ;;
    --variants) variants=$2; shift 2 ;;
    --large-points) large_points=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --commands) commands=$2; shift 2 ;;
    --accounts) accounts=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

if [ "$fiu" -gt 0 ] && ! command -v fiu-run >/dev/null; then
    echo "--fiu needs libfiu's fiu-run: ./scripts/install-dependencies.sh --test-server installs it (fiu-utils)" >&2
    exit 2
fi
if [ -z "$accounts" ]; then
    swift build --product accounts >/dev/null
    accounts="$(swift build --show-bin-path)/accounts"
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/accounts-faults-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
shim="$scratch/fault_shim.so"
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$shim" scripts/faults/fault_shim.c -ldl

password="Tangerine-Kayak-42"
new_password="Quokka-Lantern-77"

# Runs accounts in the home folder $1 without faults.
plain() {
    local home=$1
    shift
    HOME="$home" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state" XDG_CONFIG_HOME="$home/config" \
        LANG=C.UTF-8 "$accounts" "$@"
}

store_name() {
    case "$1" in sqlite) echo accounts.sqlite ;; lmdb) echo accounts.lmdb ;; json) echo accounts.json ;; esac
}

# The base state every run starts from: two users, the second signed in twice (one session
# saved, one in another file; the first user's session was revoked when the second signed up
# over it), and an export file of three other users for `import`.
make_base() {
    local backend=$1 base=$2
    mkdir -p "$base/config/accounts"
    printf 'backend: %s\n' "$backend" >"$base/config/accounts/config.yaml"
    case "$durability" in
    relaxed) printf 'sqlite:\n  synchronous: normal\nlmdb:\n  sync: nometasync\n' >>"$base/config/accounts/config.yaml" ;;
    none) printf 'sqlite:\n  synchronous: normal\nlmdb:\n  sync: none\n' >>"$base/config/accounts/config.yaml" ;;
    esac
    printf '%s\n%s\n' "$password" "$password" | plain "$base" signup --email admiral7@example.com \
        --nickname 장군 --password-stdin >/dev/null
    printf '%s\n%s\n' "$password" "$password" | plain "$base" signup --email leesoon7@example.com \
        --nickname 이순신 --password-stdin >/dev/null
    printf '%s\n' "$password" | plain "$base" login --email leesoon7@example.com --password-stdin >/dev/null
    printf '%s\n' "$password" | plain "$base" login --email leesoon7@example.com --password-stdin \
        --session-file "$base/second-session" >/dev/null
    local other="$scratch/other-$backend"
    rm -rf "$other"
    mkdir -p "$other/config/accounts"
    printf 'backend: %s\n' "$backend" >"$other/config/accounts/config.yaml"
    for name in guest001 guest002 guest003; do
        printf '%s\n%s\n' "$password" "$password" | plain "$other" signup --email $name@example.com \
            --nickname 손님 --password-stdin >/dev/null
    done
    plain "$other" export --with-sessions --output "$base/import.jsonl" >/dev/null
    python3 scripts/faults/large_export.py "$base/import.jsonl" "$base/import-large.jsonl" "$large_users"
}

# Users in the file of `import-large`: three batches of the importer (1,000 users each), the
# last one short.
large_users=2500

# The step between the calls (or changes) tried, out of $1: --every, but for the large import
# (about 1,500 calls, each check re-running it) at most $large_points points spread over all.
stride_for() {
    if [ "$command" = import-large ] && (($1 / large_points > every)); then
        echo $(($1 / large_points))
    else
        echo "$every"
    fi
}

# Whether the store in $1 holds the base plus whole batches of the large import (each user with
# its session) and a re-run of the import with --merge adds exactly the rest.
whole_batches_then_rest() {
    local home=$1 after added_users added_sessions
    after=$(snapshot "$home")
    added_users=$(($(grep -c '"type":"user"' <<<"$after") - $(grep -c '"type":"user"' <<<"$before")))
    added_sessions=$(($(grep -c '"type":"session"' <<<"$after") - $(grep -c '"type":"session"' <<<"$before")))
    [ "$added_users" = "$added_sessions" ] &&
        { [ $((added_users % 1000)) = 0 ] || [ "$added_users" = "$large_users" ]; } &&
        [ -z "$(comm -23 <(sort <<<"$before") <(sort <<<"$after"))" ] &&
        plain "$home" import --merge --input "$home/import-large.jsonl" >/dev/null 2>&1 &&
        effect_present "$home" import-large
}

# Every record of the store, sessions' last-seen times included, without the export's header
# and trailer (they carry the time). The commands swept (passwd and withdraw among them) leave a
# session untouched when they fail, so a failure must give back exactly the same lines.
snapshot() {
    plain "$1" export --with-sessions 2>/dev/null | sed '1d;$d'
}

# Runs command $2 in home $1 with the preloaded shim and extra environment ($3…); prints the
# exit status, then the output.
run_command() {
    local home=$1 command=$2
    shift 2
    local -a args stdin
    case "$command" in
    signup) args=(signup --email newcomer1@example.com --nickname 새사람 --password-stdin)
        stdin=("$password" "$password") ;;
    login) args=(login --email admiral7@example.com --password-stdin); stdin=("$password") ;;
    login-failure) args=(login --email admiral7@example.com --password-stdin); stdin=("Wrong-Password-99") ;;
    logout) args=(logout); stdin=() ;;
    passwd) args=(passwd --password-stdin); stdin=("$password" "$new_password" "$new_password") ;;
    withdraw) args=(withdraw --yes --password-stdin); stdin=("$password") ;;
    import) args=(import --merge --input "$home/import.jsonl"); stdin=() ;;
    import-large) args=(import --merge --input "$home/import-large.jsonl"); stdin=() ;;
    migrate) args=(migrate --to-backend "$backend" --to-store "$home/data/accounts/target-$(store_name "$backend")")
        stdin=() ;;
    doctor-fix) args=(doctor --fix); stdin=() ;;
    upgrade) args=(upgrade); stdin=() ;;
    esac
    local output status=0 preload="$shim"
    local -a runner=()
    if [ "${1:-}" = USE_FIU ]; then
        shift
        preload=""
        runner=(fiu-run -x -f "")
        for point in posix/io/sync/* posix/io/dir/* posix/io/rw/pread posix/io/rw/pwrite posix/io/rw/*truncate; do
            runner+=(-c "enable_random name=$point,probability=$probability")
        done
    fi
    output=$( (for line in "${stdin[@]+"${stdin[@]}"}"; do printf '%s\n' "$line"; done) |
        env "$@" FAULT_DIR="$home" LD_PRELOAD="$preload" HOME="$home" XDG_DATA_HOME="$home/data" \
            XDG_STATE_HOME="$home/state" XDG_CONFIG_HOME="$home/config" LANG=C.UTF-8 \
            timeout --kill-after 5 60 "${runner[@]}" "$accounts" "${args[@]}" --json 2>&1) || status=$?
    printf '%s\n%s\n' "$status" "$output"
}

# The exit status of the command when nothing fails.
expected_status() {
    case "$1" in login-failure) echo 5 ;; *) echo 0 ;; esac
}

# Whether the store in $1 shows the command's effect.
effect_present() {
    local home=$1 command=$2
    case "$command" in
    login) [ "$(plain "$home" users show admiral7@example.com --json | grep -o '"sessions":[0-9]*')" = '"sessions":1' ] ;;
    signup) [ "$(plain "$home" users show newcomer1@example.com --json 2>/dev/null | grep -o '"sessions":[0-9]*')" = '"sessions":1' ] ;;
    login-failure) plain "$home" users show admiral7@example.com --json | grep -q '"failed_login_count":1' ;;
    logout) [ "$(plain "$home" users show leesoon7@example.com --json | grep -o '"sessions":[0-9]*')" = '"sessions":1' ] ;;
    # The other session is revoked with the change, and the new password is the one that works.
    passwd) [ "$(plain "$home" users show leesoon7@example.com --json | grep -o '"sessions":[0-9]*')" = '"sessions":1' ] &&
        printf '%s\n' "$new_password" | plain "$home" login --email leesoon7@example.com --password-stdin \
            --session-file "$home/probe-session" >/dev/null 2>&1 ;;
    # The user and every one of its sessions are gone.
    withdraw) ! plain "$home" users show leesoon7@example.com >/dev/null 2>&1 &&
        ! grep -q "\"user_id\":\"$leesoon7_id\"" <<<"$(snapshot "$home")" ;;
    # Every user and session of the file is there.
    import) [ "$(snapshot "$home" | wc -l)" -eq "$(($(wc -l <<<"$before") + $(sed '1d;$d' "$home/import.jsonl" | wc -l)))" ] ;;
    import-large) [ "$(snapshot "$home" | wc -l)" -eq "$(($(wc -l <<<"$before") + 2 * large_users))" ] ;;
    migrate) [ "$(plain "$home" users count --store "$home/data/accounts/target-$(store_name "$backend")")" = 2 ] ;;
    doctor-fix) true ;;
    upgrade) [ "$(snapshot "$home")" = "$before" ] ;;
    esac
}

# The base of `upgrade`: the committed format-1 store of backend $1 in home $2, configured as
# the other bases are.
make_upgrade_base() {
    local backend=$1 home=$2 name
    name=$(store_name "$backend")
    mkdir -p "$home/config/accounts" "$home/data/accounts"
    printf 'backend: %s\n' "$backend" >"$home/config/accounts/config.yaml"
    cp "Tests/BackendTests/Fixtures/$backend-v1-$name" "$home/data/accounts/$name"
    chmod 600 "$home/data/accounts/$name"
}

# What an upgrade (or anything that may have stopped it) left in home $2: the old store, which
# a clean upgrade then brings to exactly the expected records ($before), or the new store
# holding them — sound either way; with $3 = returned, only the new one.
check_upgrade_left() {
    local label=$1 home=$2 returned=${3:-} probe doctor after
    probe=$(plain "$home" users count --json 2>&1 || true)
    if grep -q '"code":"store_upgrade_needed"' <<<"$probe"; then
        if [ "$returned" = returned ]; then
            report "$label" "the upgrade had returned, but the store is still of the old format" "$probe"
            return
        fi
        if ! probe=$(plain "$home" upgrade --json 2>&1); then
            report "$label" "the old store left behind does not upgrade" "$probe"
            return
        fi
    fi
    # The store's own check finds no problem (the fixture's records break the sign-up rules on
    # purpose, which doctor reports apart, as broken records).
    doctor=$(plain "$home" doctor --json 2>&1 || true)
    if ! grep -q '"problems":\[\]' <<<"$doctor"; then
        report "$label" "the store does not pass its check" "$doctor"
        return
    fi
    after=$(snapshot "$home" || true)
    if [ "$after" != "$before" ]; then
        report "$label" "the store holds neither the old store nor the whole upgrade: $(
            diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -2 | cut -c1-160 | tr '\n' ' ')" ""
    fi
}

failures=0
runs=0
hung=0
report() {
    failures=$((failures + 1))
    echo "FAIL $backend $command $1: $2" >&2
    echo "     output: $3" >&2
}

# One run of $command on a copy of the base killed at a file system call ($2): the store must be
# sound and hold either the state before the command or the whole of its change.
check_kill() {
    local label=$1 point=$2
    local work="$scratch/work"
    rm -rf "$work"
    cp -a "$base" "$work"
    local result status output
    result=$(run_command "$work" "$command" FAULT_KILL_AT="$point")
    status=$(head -1 <<<"$result")
    output=$(tail -n +2 <<<"$result")
    runs=$((runs + 1))
    if [ "$status" != 137 ]; then
        report "$label" "expected to be killed, ended with status $status" "$output"
        return
    fi
    check_crashed_store "$label" "$work"
}

# What a crash of $command may leave in $2: a store that passes its check and holds the state
# before the command or the whole of its change (an import: whole batches a re-run completes).
check_crashed_store() {
    local label=$1 work=$2
    if [ "$command" = upgrade ]; then
        check_upgrade_left "$label" "$work"
        return
    fi
    local doctor
    doctor=$(plain "$work" doctor --json 2>&1 || true)
    if ! grep -q '"integrity_ok":true' <<<"$doctor"; then
        report "$label" "the store does not pass its check after the crash" "$doctor"
    fi
    if [ "$command" = import-large ]; then
        # An import writes batch by batch: a crash leaves whole batches, and the same import
        # with --merge adds the rest.
        if ! whole_batches_then_rest "$work"; then
            report "$label" "after the crash the store does not hold whole batches that a re-run completes" ""
        fi
        return
    fi
    local after
    after=$(snapshot "$work" || true)
    if [ "$after" != "$before" ] && { [ "$command" = doctor-fix ] || ! effect_present "$work" "$command"; }; then
        report "$label" "after the crash the store holds neither the old state nor the whole change: $(
            diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -2 | cut -c1-160 | tr '\n' ' ')" ""
    fi
}

# The power cuts of one run of $command: records its changes on a copy of the base, then checks
# the state a power cut after each ($every-th) change would leave.
lost_last_commit=0
check_power_cuts() {
    local work="$scratch/work" record="$scratch/changes.record" cut="$scratch/cut"
    rm -rf "$work" "$record"
    cp -a "$base" "$work"
    local result status
    result=$(run_command "$work" "$command" FAULT_RECORD="$record")
    status=$(head -1 <<<"$result")
    if [ "$status" != "$(expected_status "$command")" ]; then
        report "recording" "the command failed without faults (status $status)" "$(tail -n +2 <<<"$result")"
        return
    fi
    local changes
    changes=$(python3 scripts/faults/power_cut.py "$base" "$record" --count)
    tried=0
    states=0
    lost_here=0
    local stride point
    stride=$(stride_for "$changes")
    for ((point = offset % stride; point <= changes; point += stride)); do
        check_cuts_at "$point" "$changes"
    done
    # The state after the last change (the command's whole effect) is always checked.
    if (((changes - offset % stride) % stride != 0)); then
        check_cuts_at "$changes" "$changes"
    fi
    lost_last_commit=$((lost_last_commit + lost_here))
    calls=$changes
}

# Every state a power cut after change $1 (of $2) could leave (--variants all), or only the one
# where every unsynced change is lost (--variants lost).
check_cuts_at() {
    local point=$1 changes=$2 variant description
    tried=$((tried + 1))
    while read -r variant description; do
        if [ "$variants" = lost ] && [ "$variant" != lost ]; then continue; fi
        states=$((states + 1))
        check_cut "$point" "$changes" "$variant" "$description"
    done < <(python3 scripts/faults/power_cut.py "$base" "$scratch/changes.record" "$point" --variants "$scratch/work")
}

check_cut() {
    local point=$1 changes=$2 variant=$3 description=$4 cut="$scratch/cut"
    rm -rf "$cut"
    python3 scripts/faults/power_cut.py "$base" "$scratch/changes.record" "$point" "$cut" "$scratch/work" "$variant"
    runs=$((runs + 1))
    local label="power cut after change $point of $changes ($description)"
    if [ "$command" = upgrade ]; then
        check_upgrade_left "$label" "$cut" "$([ "$point" = "$changes" ] && echo returned)"
        return
    fi
    local doctor
    doctor=$(plain "$cut" doctor --json 2>&1 || true)
    if ! grep -q '"integrity_ok":true' <<<"$doctor"; then
        report "$label" "the store does not open sound" "$doctor"
        return
    fi
    if [ "$point" = "$changes" ] && [ "$command" != doctor-fix ]; then
        # The command had returned: its whole change must be there.
        if ! effect_present "$cut" "$command"; then
            if [ "$durability" != full ]; then
                lost_here=1
                echo "lost: $backend $command ($durability, $description): the returned change did not survive the power cut"
            else
                report "$label" "the command had returned, but its change did not survive the power cut" ""
            fi
        fi
        return
    fi
    if [ "$command" = import-large ]; then
        if ! whole_batches_then_rest "$cut"; then
            report "$label" "the store does not hold whole batches that a re-run completes" ""
        fi
        return
    fi
    local after
    after=$(snapshot "$cut" || true)
    if [ "$after" != "$before" ] && { [ "$command" = doctor-fix ] || ! effect_present "$cut" "$command"; }; then
        report "$label" "the store holds neither the old state nor the whole change: $(
            diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -2 | cut -c1-160 | tr '\n' ' ')" ""
    fi
}

# One run of $command on a copy of the base with the shim's environment $@; checks what it left.
check_run() {
    local label=$1
    shift
    local work="$scratch/work"
    rm -rf "$work"
    cp -a "$base" "$work"
    local result status output code
    result=$(run_command "$work" "$command" "$@")
    status=$(head -1 <<<"$result")
    output=$(tail -n +2 <<<"$result")
    runs=$((runs + 1))
    code=$(grep -o '"code":"[a-z_]*"' <<<"$output" | head -1 | cut -d'"' -f4 || true)
    if [ "${1:-}" = USE_FIU ] && { [ "$status" = 124 ] || [ "$status" = 137 ]; } && [ -z "${fiu_retry:-}" ]; then
        # libfiu's preload can deadlock against the dynamic loader: its malloc wrapper waits
        # for libfiu's lock inside dlopen (seen: dispatch_main's pthread_exit loading libgcc_s)
        # while a thread holding that lock waits for the loader's (libfiu looking up the real
        # strdup). dispatch_main blocks SIGTERM, so only the KILL ends it. That is a crash at a
        # random point: the store must hold what a crash may leave. Then the run is tried once
        # more; a second hang is reported.
        hung=$((hung + 1))
        echo "note: $backend $command, $label: hung under libfiu (status $status), killed;" \
            "checked as a crash, then run again" >&2
        check_crashed_store "$label (hung, killed)" "$work"
        fiu_retry=1 check_run "$label, again" "$@"
        return
    fi
    if [ "$status" -ge 124 ] || ! grep -q '^{"ok":' <<<"$output"; then
        report "$label" "crashed, hung or printed untyped output (status $status)" "$output"
        return
    fi
    if [ "$code" = store_corrupted ]; then
        report "$label" "an injected fault was reported as store_corrupted" "$output"
    fi
    if [ "$command" = upgrade ]; then
        check_upgrade_left "$label" "$work" "$([ "$status" = 0 ] && echo returned)"
        return
    fi
    if grep -q 'rolled back' <<<"$output" && grep -q 'may or may not have taken effect' <<<"$output"; then
        report "$label" "the message says both that the change was rolled back and that it may have taken effect" "$output"
    fi
    local doctor
    doctor=$(plain "$work" doctor --json 2>&1 || true)
    if ! grep -q '"integrity_ok":true' <<<"$doctor"; then
        report "$label" "the store does not pass its check afterwards" "$doctor"
    fi
    if [ "$command" = migrate ] && [ "$status" != 0 ] &&
        [ "$(plain "$work" users count --store "$work/data/accounts/target-$(store_name "$backend")" 2>/dev/null || echo 0)" != 0 ] &&
        ! grep -q 'partial copy' <<<"$output"; then
        report "$label" "a failed migration left accounts in the target without saying so" "$output"
    fi
    local after
    after=$(snapshot "$work" || true)
    if [ "$status" = "$(expected_status "$command")" ] && [ -z "$code" -o "$command" = login-failure ]; then
        if ! effect_present "$work" "$command"; then
            report "$label" "reported success, but the store does not show it" "$output"
        fi
    elif [ "$code" = session_not_saved ]; then
        : # the store committed and the message says so
    elif [ "$command" = import ] && [ "$after" != "$before" ] && ! effect_present "$work" import; then
        # One batch: whatever the message, the import is all there or not at all.
        report "$label" "a failed import left part of its one batch" "$output"
    elif [ "$command" = import-large ] && [ "$after" != "$before" ]; then
        if ! grep -q 'had been imported before this failure' <<<"$output" || ! whole_batches_then_rest "$work"; then
            report "$label" "a failed import left a change it did not state, or one a re-run does not complete" "$output"
        fi
    elif grep -qE 'was replaced|had been imported before this failure|may or may not have taken effect' <<<"$output"; then
        : # the message says exactly what had changed
    elif [ "$after" != "$before" ]; then
        report "$label" "reported failure ($code), but the store changed: $(diff <(echo "$before") <(echo "$after") |
            grep '^[<>]' | head -2 | cut -c1-160 | tr '\n' ' ')" "$output"
    fi
}

for backend in $backends; do
    base="$scratch/base-$backend"
    rm -rf "$base"
    make_base "$backend" "$base"
    before=$(snapshot "$base")
    leesoon7_id=$(plain "$base" users show leesoon7@example.com --json | grep -o '"id":"[0-9a-f]*"' | head -1 | cut -d'"' -f4)
    # `upgrade` has its own base, the old store, and its own expectation: the records an
    # undisturbed upgrade of it holds.
    upgrade_base="$scratch/upgrade-base-$backend"
    rm -rf "$upgrade_base" "$scratch/upgraded"
    make_upgrade_base "$backend" "$upgrade_base"
    cp -a "$upgrade_base" "$scratch/upgraded"
    plain "$scratch/upgraded" upgrade >/dev/null
    upgraded=$(snapshot "$scratch/upgraded")
    common_base=$base
    common_before=$before
    for command in $commands; do
        if [ "$command" = upgrade ]; then
            base=$upgrade_base
            before=$upgraded
        else
            base=$common_base
            before=$common_before
        fi
        if [ "$power_cut" = 1 ]; then
            check_power_cuts
            echo "$backend $command ($durability): $calls recorded changes; power cut after each of $tried, $states states"
            continue
        fi
        log="$scratch/calls.log"
        rm -f "$log"
        check_run "without faults" FAULT_LOG="$log"
        calls=$(wc -l <"$log")
        tried=0
        stride=$(stride_for "$calls")
        for ((k = 1 + offset % stride; k <= calls; k += stride)); do
            if [ "$kill" = 1 ]; then
                check_kill "killed at call $k of $calls ($(sed -n "${k}p" "$log" | cut -d' ' -f2-))" "$k"
            elif [ "$unreachable" = 1 ]; then
                check_run "disk gone from call $k of $calls ($(sed -n "${k}p" "$log" | cut -d' ' -f2-))" FAULT_FROM="$k"
            else
                check_run "failing call $k of $calls ($(sed -n "${k}p" "$log" | cut -d' ' -f2-))" FAULT_AT="$k"
            fi
            tried=$((tried + 1))
        done
        for ((seed = first_seed; seed < first_seed + random; seed++)); do
            check_run "random faults, seed $seed" FAULT_PROBABILITY="$probability" FAULT_SEED="$seed"
        done
        for ((trial = 1; trial <= fiu; trial++)); do
            check_run "libfiu random faults, run $trial" USE_FIU
        done
        if [ "$kill" = 1 ]; then
            echo "$backend $command: $calls calls; killed at each of $tried"
        elif [ "$unreachable" = 1 ]; then
            echo "$backend $command: $calls calls; the disk gone from each of $tried"
        else
            echo "$backend $command: $calls calls; failed each of $tried; $random random runs; $fiu under libfiu"
        fi
    done
done
echo "fault sweep: $runs runs, $failures problems$([ "$hung" = 0 ] || echo "; $hung libfiu runs hung and were run again")"
if [ "$power_cut" = 1 ] && [ "$durability" != full ]; then
    echo "durability $durability: $lost_last_commit commands lost a change they had reported (allowed in these modes)"
fi
[ "$failures" -eq 0 ]
