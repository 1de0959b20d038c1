#!/usr/bin/env bash
# Runs every test: installs what is missing, checks formatting, builds with warnings as errors
# (each own target sets treatAllWarnings(as: .error)), runs a short smoke of each fuzz target,
# builds and drives the outside backend in Examples/CustomBackend, stages `make install` and
# checks what it installed, runs the installed systemd unit under a systemd booted in a
# container, the whole Swift Testing suite with a throwaway PostgreSQL server on a loopback
# port (so the PostgreSQL cases run too), and the documentation last: `swift
# package generate-documentation` rebuilds the modules with symbol-graph flags, and any build
# after it compiles them all again. The suite's summary is repeated above the table of stage
# times. The run has a TMPDIR of its own, and fails if the tests leave anything in it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's wall time, printed when it ends and as a table when the script exits (pass or
# fail): CI has 45 minutes, and the table shows which stage grew.
stage_names=()
stage_seconds=()
stage_start=$SECONDS
end_stage() {
    if ((${#stage_names[@]} > ${#stage_seconds[@]})); then
        stage_seconds+=($((SECONDS - stage_start)))
        echo "   (${stage_names[-1]}: ${stage_seconds[-1]} s)"
    fi
}
stage() {
    end_stage
    stage_names+=("$1")
    stage_start=$SECONDS
    echo "== $1"
}
# Everything the run makes in TMPDIR goes into a folder of its own, removed when it ends: the
# Swift driver leaves an empty TemporaryDirectory.* folder per compiler job (swift-driver#2049),
# thousands in /tmp over a day of runs, beside the compiler's swift-generated-sources (macro
# expansions) and SwiftPM's lock files (_<path>_.lock). Anything else left in it when the run
# passes fails the run, since each test and script removes what it made. The folder is readable
# by all: the PostgreSQL test server runs as the postgres user and keeps its cluster there.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/accounts-test.XXXXXX")
chmod 755 "$run_tmp"
export TMPDIR=$run_tmp
# What is left in the run's TMPDIR but the toolchain's own; removes the folder.
leftovers() {
    (cd "$run_tmp" && find . -mindepth 1 -maxdepth 1 ! -name 'TemporaryDirectory.*' ! -name '_*.lock' \
        ! -name swift-generated-sources -printf '%P\n') | LC_ALL=C sort
    rm -rf "$run_tmp"
}
test_log=$(mktemp)
stage_times() {
    end_stage
    grep -E "Test run with" "$test_log" || true
    rm -f "$test_log"
    echo "== time per stage (total $((SECONDS / 60)) min $((SECONDS % 60)) s)"
    local i
    for i in "${!stage_seconds[@]}"; do printf '%6d s  %s\n' "${stage_seconds[$i]}" "${stage_names[$i]}"; done
}
postgres_folder=""
finish() {
    local status=$? left
    if [ -n "$postgres_folder" ]; then ./scripts/postgres-test-server.sh stop "$postgres_folder" || true; fi
    stage_times
    left=$(leftovers)
    if [ -n "$left" ]; then
        echo "== left in TMPDIR by the tests or scripts (each should remove what it makes):" >&2
        echo "$left" | head -50 | sed 's/^/   /' >&2
        if [ "$status" = 0 ]; then status=1; fi
    fi
    exit "$status"
}
trap finish EXIT

stage "install what is missing"
./scripts/install-dependencies.sh --test-server --browser --bench
stage "swift format lint"
swift format lint --strict --recursive --parallel Sources Tests Package.swift Fuzz/Sources Fuzz/Package.swift \
    Examples/CustomBackend/Sources Examples/CustomBackend/Tests Examples/CustomBackend/Package.swift \
    Examples/App/Sources Examples/App/Tests Examples/App/Package.swift Plugins
stage "documents: the README a landing page, the bench README its tables, every Swift snippet compiled code"
# The README is the landing page (what, for whom, the two commands, one walkthrough, the
# backends, links) and bench/README.md the method and the current tables: guides go into the
# DocC articles and dated runs under bench/results/ (CONTRIBUTING says where each goes).
size_limit() { # size_limit FILE BYTES
    local size
    size=$(wc -c <"$1")
    if ((size > $2)); then
        echo "$1 is $size bytes, over its $2: move the rest into a DocC article (CONTRIBUTING.md says where)" >&2
        exit 1
    fi
    echo "$1: $size of at most $2 bytes"
}
size_limit README.md 10240
size_limit bench/README.md 20480
# The README's speed line is the latest saved `make bench-cli` run's, never written by hand.
python3 bench/lib/cli_table.py readme --check
./scripts/snippet-check.py
stage "swift build --build-tests"
swift build --build-tests
stage "README walkthrough against a fresh run"
./scripts/walkthrough.sh --check
stage "fuzz smoke (20 s per target)"
./scripts/fuzz.sh --smoke
stage "an outside backend: Examples/CustomBackend"
./scripts/example-backend.sh
stage "an app's package beside its own pins: Examples/App"
./scripts/example-app.sh
stage "bench/cli.sh on 300 users, debug build (a smoke of the script: make bench-cli measures)"
BENCH_BUILD=debug N=300 ROUNDS=2 RUNS=3 JSON_RUNS=2 bash bench/cli.sh
stage "bench/serve.sh for 1 s per load, debug build (a smoke of the script and of the raw PostgreSQL route's answer)"
BENCH_BUILD=debug DURATION=1s REPS=1 bash bench/serve.sh
stage "bench/import.sh on 2,000 users, debug build (a smoke of the script: make bench-import measures)"
BENCH_BUILD=debug N=2000 RUNS=1 bash bench/import.sh
stage "make install, staged under a scratch folder (debug build): the files, the manual, the completions, uninstall"
./scripts/install-check.sh
stage "the installed systemd unit under a real systemd, booted in a container (systemd-nspawn)"
./scripts/systemd-check.sh
# The fault sweeps' CI samples: every 6th call failed once (the bugs these found sat at single
# calls), one random run per command at 5 % and one at 20 % from each of the shim and libfiu, a
# crash at every 8th call, power cuts after every 4th change (every state where all unsynced
# changes are lost) and every variant of every 24th change, the disk gone from every 10th call
# on (--unreachable), the large import at 4 points each (2 for the disk gone).
# Which calls, changes and shim seeds are tried moves with the commit (--offset, --first-seed),
# so consecutive commits cover different ones; a failure prints its call or seed, and the
# stage's first line the offset, to replay it. The full sweeps, run before a release and after a
# change to a backend's writes: --random 30 --fiu 30 at --probability 0.01, 0.05 and 0.2,
# --kill, --unreachable, and --power-cut (also with --durability relaxed and none).
# On the 2-core machine of 2026-11-26 the strides of before (every call, every 3rd, 2nd and 6th)
# took 30 of CI's 61 minutes, and every 4th, 6th, 4th and 12th still 17.5 of 47; every 6th, 8th,
# 4th and 18th with 210 random runs took 16.5 of 46, and with these 120 random runs 14 of 41. On
# 2026-11-27 a run took 45.5 minutes (15 of them sweeps, the every-variant one 4): that stride
# went from 18 to 24.
# A sweep runs one `accounts` at a time and keeps one core busy (measured: 172 s of CPU in 159 s
# for the crash sweep), so they run two at a time, each printing its log whole, with its own
# time, when it ends. The order below kept both cores busy best: on 2026-11-27 they took 392 s
# for 764 s of sweeps (every-variant power cuts 183, every 6th call 200, crashes 129, power cuts
# with unsynced changes lost 172, 20 % faults 80).
sample=$((0x$(git rev-parse --short=7 HEAD 2>/dev/null || echo 0)))
stage "fault sweeps, two at a time (sample offset and first seed $sample; replay: scripts/fault-sweep.sh with a sweep's options)"
accounts_binary="$(swift build --show-bin-path)/accounts"
sweep_logs=$(mktemp -d)
sweeps=0
sweep_pids=()
# The process ids of the sweeps still running: only theirs, whatever else the script runs in the
# background. `wait -n` is given only these: given one it had already reported, it printed
# "wait: PID: no such job" to the log.
running_sweeps() {
    local pid
    for pid in "${sweep_pids[@]}"; do kill -0 "$pid" 2>/dev/null && echo "$pid"; done
}
# Runs `fault-sweep.sh` with the options after the name, in the background once fewer than two
# sweeps are running. Each writes its exit status to a file: what decides the stage, as `wait -n`
# cannot be trusted to report every job's status once `jobs` has seen it end.
sweep() {
    local name=$1 number=$((++sweeps)) running
    shift
    while mapfile -t running < <(running_sweeps) && ((${#running[@]} >= 2)); do
        wait -n "${running[@]}" || true
    done
    (
        start=$SECONDS
        status=0
        ./scripts/fault-sweep.sh --accounts "$accounts_binary" "$@" >"$sweep_logs/$number.log" 2>&1 || status=$?
        echo "$status" >"$sweep_logs/$number.status"
        {
            flock 9
            echo "-- fault sweep: $name"
            echo "   scripts/fault-sweep.sh $*"
            cat "$sweep_logs/$number.log"
            echo "   (fault sweep, $name: $((SECONDS - start)) s, exit $status)"
        } 9>"$sweep_logs/print.lock"
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
failed_sweeps=0
for number in $(seq "$sweeps"); do
    [ "$(cat "$sweep_logs/$number.status" 2>/dev/null)" = 0 ] || failed_sweeps=$((failed_sweeps + 1))
done
rm -rf "$sweep_logs"
if [ "$failed_sweeps" != 0 ]; then
    echo "$failed_sweeps of $sweeps fault sweeps failed: their logs above say which run, and how to replay it" >&2
    exit 1
fi
stage "the live API against its OpenAPI document on sqlite, lmdb and json (schemathesis, 30 examples per operation, links followed)"
./scripts/api-check.sh
stage "a real Strapi client (strapi-client 5.2.1 from PyPI): register, authorize, users/me as its BaseDocument, change-password, check_health"
./scripts/strapi-client-check.sh
stage "the web pages in headless Chromium (Selenium, axe-core): with and without JavaScript, in Korean"
./scripts/browser-check.sh
stage "PostgreSQL test server"
# The variables (the random password among them) go straight into the environment, unprinted.
server_env=$(./scripts/postgres-test-server.sh start)
eval "$server_env"
postgres_folder=$TEST_POSTGRES_FOLDER
echo "started on 127.0.0.1:$TEST_POSTGRES_PORT in $TEST_POSTGRES_FOLDER"
stage "swift test"
# --skip-build: the build stage built the tests. `swift test` builds with other flags than
# `swift build --build-tests` (swiftlang/swift-package-manager#7710: the Swift Testing define),
# so without it every own module and Hummingbird compiled again (100-140 s of each CI run).
# Every server and tool the skippable cases need was installed or started above, so
# TEST_REQUIRE_PROVIDED=1 turns a missing one into a failure (ProvidedPartsTests) instead of
# skips that would let the run pass without those cases. The suite's `.disabled` cases, for what
# a backend cannot do, say so and are not among these.
TEST_REQUIRE_PROVIDED=1 swift test --skip-build 2>&1 | tee "$test_log"
stage "documentation: every DocC catalog, warnings as errors"
./scripts/docs.sh
