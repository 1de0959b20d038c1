#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the test suite, in a temporary folder, on a loopback port.
#
#   scripts/postgres-test-server.sh start                    # prints `export TEST_POSTGRES_…=…` lines
#   scripts/postgres-test-server.sh start --tls CERT KEY     # the same, serving TLS with CERT and KEY
#   scripts/postgres-test-server.sh stop FOLDER              # stops it and removes $TEST_POSTGRES_FOLDER
#
# The cluster uses password (SCRAM) authentication, so the tests exercise the same path as a
# deployment. The password is random per run and only ever travels in the environment.
# When run as root the server runs as the `postgres` system user (PostgreSQL refuses root).
set -euo pipefail

usage="usage: postgres-test-server.sh start [--tls CERT KEY] | stop FOLDER"
action=${1:?$usage}
folder=${2:-}
tls_certificate=""
tls_key=""
if [ "$action" = start ] && [ "${2:-}" = --tls ]; then
    tls_certificate=${3:?$usage}
    tls_key=${4:?$usage}
    folder=""
fi

bindir=""
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
    bindir=$(pg_config --bindir)
else
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "postgres-test-server: no PostgreSQL server binaries (Debian package postgresql)" >&2
    exit 1
fi

as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    as_owner=(runuser -u postgres --)
fi

case "$action" in
start)
    # Under /tmp (world-traversable) so the server's own user can reach it when we are root.
    folder=$(mktemp -d "${TMPDIR:-/tmp}/accounts-postgres-XXXXXX")
    [ "$(id -u)" -eq 0 ] && chown postgres: "$folder"
    password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    printf '%s\n' "$password" >"$folder/pwfile"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$folder/pwfile"
    chmod 600 "$folder/pwfile"
    "${as_owner[@]}" "$bindir/initdb" -D "$folder/data" -U accounts --pwfile="$folder/pwfile" \
        --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 ||
        { cat "$folder/initdb.log" >&2; exit 1; }
    rm -f "$folder/pwfile"
    tls_settings=""
    if [ -n "$tls_certificate" ]; then
        # Copies the server may read (the key private to its owner, as PostgreSQL demands);
        # clients check the certificate against their own copy of CERT.
        cp "$tls_certificate" "$folder/server.crt"
        cp "$tls_key" "$folder/server.key"
        [ "$(id -u)" -eq 0 ] && chown postgres: "$folder/server.crt" "$folder/server.key"
        chmod 600 "$folder/server.key"
        tls_settings="-c ssl=on -c ssl_cert_file='$folder/server.crt' -c ssl_key_file='$folder/server.key'"
    fi
    # A free loopback port: ask the kernel for one, then hand it to the server.
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    # The server outlives this script, and would hold open every descriptor the script was
    # given beyond 0-2: a caller's pipe, or the socket by which Foundation's `Process` learns
    # that its child exited, so a test starting this script would wait for it forever. The
    # subshell closes them before pg_ctl starts the server.
    (
        for fd in $(ls /proc/$BASHPID/fd); do
            if [ "$fd" -gt 2 ] && [ "$fd" -ne 255 ]; then eval "exec $fd>&-"; fi
        done
        exec "${as_owner[@]}" "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$folder' -c max_connections=400 -c fsync=on $tls_settings" \
            start >/dev/null
    ) || { cat "$folder/server.log" >&2; exit 1; }
    PGPASSWORD=$password "$bindir/psql" -h 127.0.0.1 -p "$port" -U accounts -d postgres -qAt \
        -c "CREATE DATABASE accounts_test" >/dev/null
    echo "export TEST_POSTGRES_FOLDER=$folder"
    echo "export TEST_POSTGRES_HOST=127.0.0.1"
    echo "export TEST_POSTGRES_PORT=$port"
    # The same server through its Unix socket ($folder/.s.PGSQL.$port), as libpq names it.
    echo "export TEST_POSTGRES_SOCKET_FOLDER=$folder"
    echo "export TEST_POSTGRES_USER=accounts"
    echo "export TEST_POSTGRES_DATABASE=accounts_test"
    echo "export TEST_POSTGRES_PASSWORD=$password"
    ;;
stop)
    [ -n "$folder" ] || { echo "$usage" >&2; exit 2; }
    if [ -d "$folder/data" ]; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$folder"
    ;;
*)
    echo "$usage" >&2
    exit 2
    ;;
esac
