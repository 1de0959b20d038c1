#!/usr/bin/env bash
# make bench-serve: `accounts serve` under load from wrk (Debian), release build, one machine.
#
#   - authenticated GET /v1/me on SQLite, LMDB and PostgreSQL (a throwaway server), and on SQLite
#     with a signed access token (session.access_tokens: jwt) too, against a
#     bare Hummingbird route with a constant JSON body (accounts-bench serve-baseline); on
#     PostgreSQL also against its own yardstick, Hummingbird and postgres-nio alone running the
#     same session-and-user query on a pool of the same size over the same store
#     (accounts-bench serve-raw-postgres), right after it in each rep;
#   - login and sign-up throughput on SQLite (and login on PostgreSQL), against the hashing
#     limit: cores ÷ one Argon2id's time (accounts-bench hash, the configured parameters),
#     measured just before each of those loads: one hash took 10.4 ms in one run and 15.0 ms in
#     another on this shared machine, so a limit measured once, minutes away, made ratios above 1;
#   - the server's peak memory under 500 concurrent logins (the hashing queue answers the
#     excess 503 instead of holding 19 MiB per request).
#
# Knobs: DURATION=10s, CONNECTIONS=32, REPS=3 (medians of the reps; each rep runs every
# configuration once, interleaved). wrk shares the 2 cores with the server: figures are for
# comparison within one run, not absolute capacity.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/wait-for-listening.sh
. bench/lib/release-build.sh

DURATION=${DURATION-10s}
CONNECTIONS=${CONNECTIONS-32}
REPS=${REPS-3}

./scripts/install-dependencies.sh --test-server --bench
release_build accounts accounts-bench
work=$(mktemp -d "${TMPDIR:-/tmp}/accounts-serve-bench-XXXXXX")
pids=()
pg_folder=""
cleanup() {
    for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [ -n "$pg_folder" ]; then ./scripts/postgres-test-server.sh stop "$pg_folder" >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

password="Tangerine-Kayak-42"
cores=$(nproc)

# The environment of a server for backend $1 in home $2: limits off (one client is all of wrk).
# "sqlite-jwt" is SQLite with signed access tokens (session.access_tokens: jwt).
server_env() {
    local backend=$1 home=$2
    echo "HOME=$home" "LANG=C.UTF-8" "PATH=/usr/bin:/bin" "ACCOUNTS_BACKEND=${backend%-jwt}" \
        ACCOUNTS_SERVER_SIGNUPS_PER_MINUTE=1000000 ACCOUNTS_SERVER_LOGINS_PER_MINUTE=1000000 \
        ACCOUNTS_SERVER_PASSWORD_CHECKS_PER_MINUTE=1000000
    if [ "$backend" = sqlite-jwt ]; then
        echo ACCOUNTS_SESSION_ACCESS_TOKENS=jwt ACCOUNTS_SERVER_PUBLIC_URL=https://accounts.example.com
    fi
    if [ "$backend" = postgres ]; then
        echo "ACCOUNTS_POSTGRES_HOST=$TEST_POSTGRES_HOST" "ACCOUNTS_POSTGRES_PORT=$TEST_POSTGRES_PORT" \
            "ACCOUNTS_POSTGRES_USER=$TEST_POSTGRES_USER" "ACCOUNTS_POSTGRES_DATABASE=$TEST_POSTGRES_DATABASE" \
            "ACCOUNTS_POSTGRES_PASSWORD=$TEST_POSTGRES_PASSWORD" "ACCOUNTS_POSTGRES_SCHEMA=$pg_schema" \
            ACCOUNTS_POSTGRES_POOL_SIZE=8
    fi
}

# Starts a server (`accounts serve` for backend $1, the bare route for "baseline", the raw
# PostgreSQL route over the postgres store for "raw-postgres") and sets $url and $server_pid.
start_server() {
    local backend=$1 home="$work/$1-$RANDOM"
    mkdir -p "$home"
    if [ "$backend" = baseline ]; then
        "$bin/accounts-bench" serve-baseline --port 0 >"$home/out" 2>/dev/null &
    elif [ "$backend" = raw-postgres ]; then
        # shellcheck disable=SC2046
        env -i $(server_env postgres "$home") "$bin/accounts-bench" serve-raw-postgres --port 0 >"$home/out" 2>"$home/log" &
    else
        # shellcheck disable=SC2046
        env -i $(server_env "$backend" "$home") "$bin/accounts" serve --port 0 >"$home/out" 2>"$home/log" &
    fi
    server_pid=$!
    pids+=("$server_pid")
    wait_for_listening "$home/out" "$home/log" "the $backend server"
}

stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }

# wrk's figures as "requests/s p50_ms p99_ms non2xx".
wrk_figures() {
    wrk -t2 -c"$1" -d"$DURATION" --latency "${@:2}" 2>&1 | awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec/ { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        /Non-2xx/ { bad = $NF }
        END { printf "%.0f %.2f %.2f %d\n", rps, p50, p99, bad }'
}

cat >"$work/login.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"leesoon7@example.com","password":"$password"}'
LUA
cat >"$work/signup.lua" <<LUA
-- Every request a new email: a per-thread prefix (wrk numbers its threads in setup) and a counter.
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("prefix", string.format("b%04dx%05d", threads, math.random(0, 99999)))
end
local counter = 0
request = function()
    counter = counter + 1
    local body = string.format('{"email":"%s%08d@example.com","password":"$password","nickname":"bench"}', prefix, counter)
    return wrk.format("POST", "/v1/signup", {["Content-Type"] = "application/json"}, body)
end
LUA

# One Argon2id's time in µs, and how many hashes a second the cores reach side by side with
# nothing else running (the machine's own ceiling: the limit, cores ÷ one hash, assumes perfect
# scaling), as "hash_us parallel_per_second".
hash_figures() {
    local one side_by_side
    one=$("$bin/accounts-bench" hash --iterations 40 | awk '$1 == "RESULT" { print $9 }')
    side_by_side=$("$bin/accounts-bench" hash --iterations 40 --threads "$cores" |
        awk '$1 == "RESULT" { printf "%.0f", $6 / $7 }')
    echo "$one $side_by_side"
}

# hashing_load ROW SCRIPT PATH: a login or sign-up load on the running server, with the hashing
# limit measured just before it; records the load's figures and its two ratios.
hashing_load() {
    local row=$1 hash_us side_by_side figures
    read -r hash_us side_by_side <<<"$(hash_figures)"
    figures=$(wrk_figures 16 -s "$work/$2" "$url$3")
    echo "$row $figures" >>"$results"
    echo "hash $hash_us $side_by_side" >>"$results"
    awk -v row="$row" -v rps="${figures%% *}" -v c="$cores" -v us="$hash_us" -v p="$side_by_side" \
        'BEGIN { printf "ratio-%s %.3f %.3f\n", row, rps / (c * 1e6 / us), rps / p }' >>"$results"
}

backends="sqlite lmdb"
if server_vars=$(./scripts/postgres-test-server.sh start 2>/dev/null); then
    eval "$server_vars"
    pg_folder=$TEST_POSTGRES_FOLDER
    backends="$backends postgres"
else
    echo "PostgreSQL: no throwaway server could be started; its row is left out" >&2
fi

# Signs up the one account on the running server and prints a login's token.
sign_in() {
    curl -s "$url/v1/signup" -H 'Content-Type: application/json' \
        -d "{\"email\":\"leesoon7@example.com\",\"password\":\"$password\",\"nickname\":\"이순신\"}" >/dev/null
    curl -s "$url/v1/login" -H 'Content-Type: application/json' \
        -d "{\"email\":\"leesoon7@example.com\",\"password\":\"$password\"}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}

results="$work/results"
: >"$results"
for rep in $(seq 1 "$REPS"); do
    echo "== rep $rep/$REPS" >&2
    start_server baseline
    echo "baseline $(wrk_figures "$CONNECTIONS" "$url/")" >>"$results"
    stop_server
    for backend in $backends; do
        pg_schema=bench_$RANDOM
        start_server "$backend"
        token=$(sign_in)
        echo "me-$backend $(wrk_figures "$CONNECTIONS" -H "Authorization: Bearer $token" "$url/v1/me")" >>"$results"
        if [ "$backend" = sqlite ]; then
            hashing_load login-sqlite login.lua /v1/login
            hashing_load signup-sqlite signup.lua /v1/signup
            # The same read with a signed access token: its signature checked, then the user
            # and the session looked up (where an opaque token is one lookup).
            stop_server
            start_server sqlite-jwt
            token=$(sign_in)
            echo "me-sqlite-jwt $(wrk_figures "$CONNECTIONS" -H "Authorization: Bearer $token" "$url/v1/me")" >>"$results"
        elif [ "$backend" = postgres ]; then
            served=$(curl -s -H "Authorization: Bearer $token" "$url/v1/me")
            # Logins whose session writes are round trips to another process: what a hashing
            # slot held through the store's calls would cost shows here first.
            hashing_load login-postgres login.lua /v1/login
            # The same signed-in read by Hummingbird and postgres-nio alone, over the same
            # store and session (the logins above ended none).
            stop_server
            start_server raw-postgres
            # A yardstick that answers differently measures something else: stop here.
            raw=$(curl -s -H "Authorization: Bearer $token" "$url/v1/me")
            if [ "$raw" != "$served" ]; then
                echo "error: the raw route's /v1/me differs from accounts serve's:" >&2
                printf '  accounts serve: %s\n  raw route:      %s\n' "$served" "$raw" >&2
                exit 1
            fi
            echo "raw-postgres $(wrk_figures "$CONNECTIONS" -H "Authorization: Bearer $token" "$url/v1/me")" >>"$results"
        fi
        stop_server
    done
done

# Memory under 500 concurrent logins (once): the server's peak resident set.
start_server sqlite
curl -s "$url/v1/signup" -H 'Content-Type: application/json' \
    -d "{\"email\":\"leesoon7@example.com\",\"password\":\"$password\",\"nickname\":\"이순신\"}" >/dev/null
idle_kib=$(awk '/VmRSS/ { print $2 }' "/proc/$server_pid/status")
burst=$(wrk_figures 500 -s "$work/login.lua" "$url/v1/login")
peak_kib=$(awk '/VmHWM/ { print $2 }' "/proc/$server_pid/status")
stop_server

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
figure() { awk -v k="$1" -v f="$2" '$1 == k { print $f }' "$results" | median; }

base_rps=$(figure baseline 2)
hash_us=$(figure hash 2)
hash_parallel=$(figure hash 3)
hash_limit=$(awk -v c="$cores" -v us="$hash_us" 'BEGIN { printf "%.0f", c * 1e6 / us }')
hash_range=$(awk '$1 == "hash" { v = $2 / 1000; if (lo == "" || v < lo) lo = v; if (v > hi) hi = v }
    END { printf "%.1f-%.1f", lo, hi }' "$results")
echo
echo "accounts serve, ${BENCH_BUILD:-release} build, wrk -t2 -c$CONNECTIONS -d$DURATION (login/sign-up -c16), median of $REPS, $cores cores"
printf '%-28s %10s %9s %9s %8s %s\n' "workload" "req/s" "p50 ms" "p99 ms" "non-2xx" "ratio"
printf '%-28s %10s %9s %9s %8s %s\n' "bare Hummingbird GET /" "$base_rps" "$(figure baseline 3)" "$(figure baseline 4)" \
    "$(figure baseline 5)" "1.00 (baseline)"
for backend in $backends; do
    rps=$(figure "me-$backend" 2)
    printf '%-28s %10s %9s %9s %8s %s\n' "GET /v1/me ($backend)" "$rps" "$(figure "me-$backend" 3)" \
        "$(figure "me-$backend" 4)" "$(figure "me-$backend" 5)" \
        "$(awk -v a="$rps" -v b="$base_rps" 'BEGIN { printf "%.2f of the baseline", a / b }')"
done
if grep -q "^me-sqlite-jwt " "$results"; then
    jwt_rps=$(figure me-sqlite-jwt 2)
    paste <(awk '$1 == "me-sqlite-jwt" { print $2 }' "$results") <(awk '$1 == "me-sqlite" { print $2 }' "$results") |
        awk '{ printf "%.3f\n", $1 / $2 }' >"$work/jwt-ratios"
    printf '%-28s %10s %9s %9s %8s %s\n' "GET /v1/me (sqlite, jwt)" "$jwt_rps" "$(figure me-sqlite-jwt 3)" \
        "$(figure me-sqlite-jwt 4)" "$(figure me-sqlite-jwt 5)" \
        "$(awk -v a="$jwt_rps" -v b="$base_rps" 'BEGIN { printf "%.2f of the baseline", a / b }'), $(median <"$work/jwt-ratios") of opaque"
fi
if grep -q "^raw-postgres " "$results"; then
    raw_rps=$(figure raw-postgres 2)
    printf '%-28s %10s %9s %9s %8s %s\n' "raw postgres-nio GET /v1/me" "$raw_rps" "$(figure raw-postgres 3)" \
        "$(figure raw-postgres 4)" "$(figure raw-postgres 5)" \
        "$(awk -v a="$raw_rps" -v b="$base_rps" 'BEGIN { printf "%.2f of the baseline", a / b }')"
    # Each rep's own ratio (the two ran a minute apart), then their median.
    paste <(awk '$1 == "me-postgres" { print $2 }' "$results") <(awk '$1 == "raw-postgres" { print $2 }' "$results") |
        awk '{ printf "%.3f\n", $1 / $2 }' >"$work/raw-ratios"
    echo "GET /v1/me (postgres) / the raw postgres-nio route: $(median <"$work/raw-ratios") (median of the reps;" \
        "reps $(sort -n "$work/raw-ratios" | head -1)-$(sort -n "$work/raw-ratios" | tail -1))"
fi
for row in login-sqlite signup-sqlite login-postgres; do
    grep -q "^$row " "$results" || continue
    rps=$(figure "$row" 2)
    printf '%-28s %10s %9s %9s %8s %s\n' "POST /v1/${row%-*} (${row#*-})" "$rps" "$(figure "$row" 3)" \
        "$(figure "$row" 4)" "$(figure "$row" 5)" \
        "$(printf '%.2f of the hashing limit, %.2f of the cores hashing alone' \
            "$(figure "ratio-$row" 2)" "$(figure "ratio-$row" 3)")"
done
echo "hashing limit, measured before each login or sign-up load (ratios: the median of each load's own):" \
    "$cores cores / $(awk -v us="$hash_us" 'BEGIN { printf "%.1f", us / 1000 }') ms per Argon2id ($hash_range) = $hash_limit per second;" \
    "$cores threads hashing side by side reach $hash_parallel per second" \
    "($(awk -v p="$hash_parallel" -v l="$hash_limit" 'BEGIN { printf "%.2f", p / l }') of the limit:" \
    "the most a server can reach on this machine in this run)"
read -r burst_rps _ _ burst_bad <<<"$burst"
echo "500 concurrent logins for $DURATION: $burst_rps req/s, $burst_bad answered 503/429; server RSS $((idle_kib / 1024)) MiB idle, peak $((peak_kib / 1024)) MiB"
