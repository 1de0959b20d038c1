#!/usr/bin/env bash
# Runs every test: installs what is missing, checks formatting and the documents, builds with
# warnings as errors (each own target sets treatAllWarnings(as: .error)), then every check on
# that one build: the two example packages, the fuzz smoke, the walkthroughs, the bench scripts'
# smokes, `make install` staged and its systemd unit under a real systemd, the whole Swift
# Testing suite with a throwaway PostgreSQL server on a loopback port, the live API against its
# OpenAPI document, a real Strapi client, the web pages in Chromium, the fault sweeps' samples,
# and the documentation last (`swift package generate-documentation` rebuilds the modules with
# symbol-graph flags, so only the fault sweeps, on a copy of the binary, run beside it).
#
# On two cores the run is bound by CPU, so the checks that do not share a build or a port run
# side by side in lanes: a lane that compiles beside one that runs programs one at a time, the
# test suite beside the checks that drive a server from outside. Every script uses the one
# build (PREBUILT_BIN: not an ACCOUNTS_ variable, which `accounts` would refuse as a setting it
# does not know) instead of asking SwiftPM, which holds a lock on .build for as long
# as `swift test` runs. Each stage prints its wall and CPU seconds when it ends, each lane's log
# comes whole, and a table of them all closes the run (pass or fail), so a stage that grew shows.
# The run has a TMPDIR of its own, and fails if the tests leave anything in it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Bookkeeping outside the run's TMPDIR, which must end empty: each stage's times, each lane's log.
books=$(mktemp -d)
# Everything the run makes in TMPDIR goes into a folder of its own, removed when it ends: the
# Swift driver leaves an empty TemporaryDirectory.* folder per compiler job (swift-driver#2049),
# thousands in /tmp over a day of runs, beside the compiler's swift-generated-sources (macro
# expansions) and SwiftPM's lock files (_<path>_.lock). Anything else left in it when the run
# passes fails the run, since each test and script removes what it made. The folder is readable
# by all: the PostgreSQL test server runs as the postgres user and keeps its cluster there.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/accounts-test.XXXXXX")
chmod 755 "$run_tmp"
export TMPDIR=$run_tmp
ticks_per_second=$(getconf CLK_TCK)

# The CPU time, in clock ticks, of this shell's children that have ended (user and system),
# read from /proc in this very process (a command substitution would read its own).
children_ticks() {
    local fields
    read -ra fields </proc/$BASHPID/stat
    ticks=$((fields[15] + fields[16]))
}

# run_stage NAME COMMAND...: runs the command (a script, or a function of this file) with errexit
# in force, then records and prints its wall and CPU seconds. Returns its status.
run_stage() {
    local name=$1 start=$SECONDS before status=0
    shift
    echo "== $name"
    children_ticks
    before=$ticks
    # In the background and waited for: a function run in a `||` context would run with
    # errexit off, and go on past a failed step.
    "$@" &
    wait $! || status=$?
    children_ticks
    local wall=$((SECONDS - start)) cpu=$(((ticks - before) / ticks_per_second))
    printf '%s\t%s\t%s\t%s\n' "$wall" "$cpu" "$status" "$name" >>"$books/stages"
    echo "   ($name: $wall s, CPU $cpu s$( ((status == 0)) || echo ", exit $status"))"
    return "$status"
}

# lanes LANE...: runs each lane (a function that runs stages one after another) beside the
# others, each into a log of its own printed whole when it ends; fails when any lane failed.
lanes() {
    local pids=() logs=() lane index failed=0
    for lane in "$@"; do
        logs+=("$books/lane-${#logs[@]}.log")
        "$lane" >"${logs[-1]}" 2>&1 &
        pids+=($!)
    done
    for index in "${!pids[@]}"; do
        wait "${pids[$index]}" || failed=1
        cat "${logs[$index]}"
    done
    return "$failed"
}

finish() {
    local status=$? left
    echo "== time per stage (total $((SECONDS / 60)) min $((SECONDS % 60)) s; stages in lanes ran side by side)"
    if [ -f "$books/stages" ]; then
        while IFS=$'\t' read -r wall cpu stage_status name; do
            printf '%6d s %6d s CPU  %s%s\n' "$wall" "$cpu" "$name" "$( ((stage_status == 0)) || echo " (exit $stage_status)")"
        done <"$books/stages"
    fi
    grep -hE "Test run with" "$books"/*.log 2>/dev/null || true
    rm -rf "$books"
    left=$( (cd "$run_tmp" && find . -mindepth 1 -maxdepth 1 ! -name 'TemporaryDirectory.*' ! -name '_*.lock' \
        ! -name swift-generated-sources -printf '%P\n') | LC_ALL=C sort)
    rm -rf "$run_tmp"
    if [ -n "$left" ]; then
        echo "== left in TMPDIR by the tests or scripts (each should remove what it makes):" >&2
        echo "$left" | head -50 | sed 's/^/   /' >&2
        if [ "$status" = 0 ]; then status=1; fi
    fi
    exit "$status"
}
trap finish EXIT

# --- The stages ---

install_missing() { ./scripts/install-dependencies.sh --test-server --browser --bench; }

format_lint() {
    swift format lint --strict --recursive --parallel Sources Tests Package.swift Fuzz/Sources Fuzz/Package.swift \
        Examples/CustomBackend/Sources Examples/CustomBackend/Tests Examples/CustomBackend/Package.swift \
        Examples/App/Sources Examples/App/Tests Examples/App/Package.swift Plugins
}

# The README is the landing page (what, for whom, the two commands, one walkthrough, the
# backends, links) and bench/README.md the method and the current tables: guides go into the
# DocC articles and dated runs under bench/results/ (CONTRIBUTING says where each goes).
documents() {
    size_limit() { # size_limit FILE BYTES
        local size
        size=$(wc -c <"$1")
        if ((size > $2)); then
            echo "$1 is $size bytes, over its $2: move the rest into a DocC article (CONTRIBUTING.md says where)" >&2
            return 1
        fi
        echo "$1: $size of at most $2 bytes"
    }
    size_limit README.md 10240
    size_limit bench/README.md 20480
    # The README's speed line is the latest saved `make bench-cli` run's, never written by hand.
    python3 bench/lib/cli_table.py readme --check
    ./scripts/snippet-check.py
}

# The tests, the executables, and argument-parser's manual generator (`make install` writes the
# manual page with it): everything the later stages run, built once.
build() {
    swift build --build-tests
    swift build --product generate-manual
}

bench_cli_smoke() { BENCH_BUILD=debug N=300 ROUNDS=2 RUNS=3 JSON_RUNS=2 bash bench/cli.sh; }
bench_serve_smoke() { BENCH_BUILD=debug DURATION=1s REPS=1 bash bench/serve.sh; }
bench_import_smoke() { BENCH_BUILD=debug N=2000 RUNS=1 bash bench/import.sh; }

# The whole suite, with a throwaway PostgreSQL server so the PostgreSQL cases run too. Every
# server and tool the skippable cases need was installed or is started here, so
# TEST_REQUIRE_PROVIDED=1 turns a missing one into a failure (ProvidedPartsTests) instead of
# skips that would let the run pass without those cases. The suite's `.disabled` cases, for what
# a backend cannot do, say so and are not among these. --skip-build: the build stage built the
# tests; `swift test` builds with other flags than `swift build --build-tests`
# (swiftlang/swift-package-manager#7710: the Swift Testing define), so it would compile every own
# module and Hummingbird again.
swift_test() {
    local server_env status=0
    # The variables (the random password among them) go straight into the environment, unprinted.
    server_env=$(./scripts/postgres-test-server.sh start)
    eval "$server_env"
    # This stage runs in a process of its own: whatever ends it, the server stops with it.
    trap './scripts/postgres-test-server.sh stop "$TEST_POSTGRES_FOLDER" >/dev/null 2>&1 || true' EXIT
    echo "PostgreSQL test server on 127.0.0.1:$TEST_POSTGRES_PORT in $TEST_POSTGRES_FOLDER"
    TEST_REQUIRE_PROVIDED=1 swift test --skip-build || status=$?
    return "$status"
}

# The fault sweeps' CI samples: every 6th call failed once (the bugs these found sat at single
# calls), one random run per command at 5 % and one at 20 % from each of the shim and libfiu, a
# crash at every 8th call, power cuts after every 4th change (every state where all unsynced
# changes are lost) and every variant of every 24th change, the disk gone from every 10th call
# on (--unreachable), the large import at 4 points each (2 for the disk gone).
# Which calls, changes and shim seeds are tried moves with the commit (--offset, --first-seed),
# so consecutive commits cover different ones; a failure prints its call or seed, and the
# stage's first line the offset, to replay it. The full sweeps, run before a release and after a
# change to a backend's writes: --random 30 --fiu 30 at --probability 0.01, 0.05 and 0.2,
# --kill, --unreachable, and --power-cut (also with --durability relaxed and none). A sweep runs
# one `accounts` at a time and keeps one core busy, so they run two at a time, each printing its
# log whole, with its own time, when it ends; the order below keeps both cores busy.
fault_sweeps() {
    local sample=$1 accounts=$2 logs sweeps=0 sweep_pids=() failed=0 number
    logs=$(mktemp -d "$books/sweeps.XXXXXX")
    # The process ids of the sweeps still running: only theirs. `wait -n` is given only these:
    # given one it had already reported, it printed "wait: PID: no such job" to the log.
    running_sweeps() {
        local pid
        for pid in "${sweep_pids[@]}"; do kill -0 "$pid" 2>/dev/null && echo "$pid"; done
    }
    # Runs `fault-sweep.sh` with the options after the name, in the background once fewer than
    # two sweeps are running. Each writes its exit status to a file: what decides the stage, as
    # `wait -n` cannot be trusted to report every job's status once `jobs` has seen it end.
    sweep() {
        local name=$1 number=$((++sweeps)) running
        shift
        while mapfile -t running < <(running_sweeps) && ((${#running[@]} >= 2)); do
            wait -n "${running[@]}" || true
        done
        (
            start=$SECONDS
            status=0
            ./scripts/fault-sweep.sh --accounts "$accounts" "$@" >"$logs/$number.log" 2>&1 ||
                status=$?
            echo "$status" >"$logs/$number.status"
            {
                flock 9
                echo "-- fault sweep: $name"
                echo "   scripts/fault-sweep.sh $*"
                cat "$logs/$number.log"
                echo "   (fault sweep, $name: $((SECONDS - start)) s, exit $status)"
            } 9>"$logs/print.lock"
        ) &
        sweep_pids+=($!)
    }
    sweep "power cuts after every 24th change, every variant" \
        --power-cut --every 24 --offset "$sample" --large-points 4
    sweep "every 6th file system call of each mutating command failed once, random faults at 5 %" \
        --every 6 --offset "$sample" --random 1 --first-seed "$sample" --fiu 1 --large-points 4
    sweep "a crash (SIGKILL) at every 8th call" --kill --every 8 --offset "$sample" --large-points 4
    sweep "power cuts after every 4th change, unsynced changes lost" \
        --power-cut --every 4 --offset "$sample" --variants lost --large-points 4
    sweep "random faults at 20 %, no single-call pass" \
        --every 1000000 --random 1 --first-seed "$sample" --fiu 1 --probability 0.2 --large-points 1
    sweep "the disk gone from every 10th call on (every call after it fails too)" \
        --unreachable --every 10 --offset "$sample" --large-points 2
    wait "${sweep_pids[@]}"
    for number in $(seq "$sweeps"); do
        [ "$(cat "$logs/$number.status" 2>/dev/null)" = 0 ] || failed=$((failed + 1))
    done
    if [ "$failed" != 0 ]; then
        echo "$failed of $sweeps fault sweeps failed: their logs above say which run, and how to replay it" >&2
        return 1
    fi
}

# --- The lanes: each runs its stages one after another, beside the other lane ---

# Two packages of their own that depend on this one by path: each compiles, on both cores.
examples_lane() {
    run_stage "an outside backend: Examples/CustomBackend" ./scripts/example-backend.sh
    run_stage "an app's package beside its own pins: Examples/App" ./scripts/example-app.sh
}

# Programs run one at a time, mostly on one core.
programs_lane() {
    run_stage "fuzz smoke (20 s per target)" ./scripts/fuzz.sh --smoke
    run_stage "README walkthrough against a fresh run" ./scripts/walkthrough.sh --check
    run_stage "bench/cli.sh on 300 users, debug build (a smoke of the script: make bench-cli measures)" \
        bench_cli_smoke
    run_stage "bench/import.sh on 2,000 users, debug build (a smoke of the script: make bench-import measures)" \
        bench_import_smoke
    run_stage "make install, staged under a scratch folder (debug build): the files, the manual, the completions, uninstall" \
        ./scripts/install-check.sh
    run_stage "the installed systemd unit under a real systemd, booted in a container (systemd-nspawn)" \
        ./scripts/systemd-check.sh
}

suite_lane() {
    run_stage "swift test, with a throwaway PostgreSQL server" swift_test
}

# Servers of their own, each on a free port, driven from outside.
outside_lane() {
    run_stage "the live API against its OpenAPI document on sqlite, lmdb and json (schemathesis, 30 examples per operation, links followed)" \
        ./scripts/api-check.sh
    run_stage "a real Strapi client (strapi-client 5.2.1 from PyPI): register, authorize, users/me as its BaseDocument, change-password, check_health" \
        ./scripts/strapi-client-check.sh
    run_stage "forgot password by mail through a real SMTP relay (aiosmtpd 1.4.6 from PyPI): STARTTLS, relay down, server killed, 451 then 250, Strapi routes, CLI" \
        ./scripts/mail-check.sh
    run_stage "signed access tokens checked by PyJWT 2.10.1 (from PyPI) against /.well-known/jwks.json: claims, a changed token, keys rotate, logout, rotate --now" \
        ./scripts/token-check.sh
    run_stage "sign-in with providers: django-oauth-toolkit 3.0.1 (from PyPI) as an OpenID Connect provider, a stand-in of GitHub's documented API: new accounts, no takeover, linking, codes used twice" \
        ./scripts/provider-check.sh
    run_stage "the web pages in headless Chromium (Selenium, axe-core): with and without JavaScript, in Korean" \
        ./scripts/browser-check.sh
    run_stage "bench/serve.sh for 1 s per load, debug build (a smoke of the script and of the raw PostgreSQL route's answer)" \
        bench_serve_smoke
}

# --- The run ---

run_stage "install what is missing" install_missing
run_stage "swift format lint" format_lint
run_stage "documents: the README a landing page, the bench README its tables, every Swift snippet compiled code" \
    documents
run_stage "swift build --build-tests" build
PREBUILT_BIN=$(swift build --show-bin-path)
export PREBUILT_BIN
lanes examples_lane programs_lane
lanes suite_lane outside_lane
# The sweeps run a copy of `accounts`, so the documentation's rebuild beside them (it compiles the
# modules again, with symbol-graph flags) cannot touch the binary they run.
sweep_bin=$(mktemp -d "$books/sweep-bin.XXXXXX")
cp "$PREBUILT_BIN/accounts" "$sweep_bin/accounts"
sample=$((0x$(git rev-parse --short=7 HEAD 2>/dev/null || echo 0)))
sweeps_lane() {
    run_stage "fault sweeps, two at a time (sample offset and first seed $sample; replay: scripts/fault-sweep.sh with a sweep's options)" \
        fault_sweeps "$sample" "$sweep_bin/accounts"
}
documentation_lane() {
    run_stage "documentation: every DocC catalog, warnings as errors" ./scripts/docs.sh
}
lanes sweeps_lane documentation_lane
