#!/usr/bin/env bash
# Runs the systemd unit that `make install` puts in PREFIX/lib/systemd/system under a real
# systemd: boots one in a container (systemd-nspawn, from Debian's systemd-container) made of
# this host's own /usr (read-only) and a copy of its /etc, with `make install` of the debug
# build staged into the container's /usr/local, and checks what an operator meets:
#   - systemd finds the unit in /usr/local/lib/systemd/system, and `systemd-analyze verify`
#     has nothing to say about it (its manual page included);
#   - `systemctl enable --now accounts` starts the server as a dynamic user with no config
#     file: /healthz answers on 127.0.0.1:8080, a sign-up works, and the store is
#     /var/lib/accounts/accounts.sqlite, mode 0600, owned by the service's user, to whom the
#     rest of the file system is read-only;
#   - `systemctl stop` ends it through SIGTERM: exit 0 and "Server stopped; the store is
#     closed." in the journal; started again, the account signs in;
#   - /etc/accounts/config.yaml is read, and a drop-in's Environment= wins over it;
#   - HTTPS with a key only root may read, passed to the service with LoadCredential=; a
#     PostgreSQL password file passed the same way passes the backend's own check, where the
#     file itself is unreadable to a dynamic user;
#   - a bad setting fails the unit with exit 8 naming the key, and systemd does not restart it;
#   - the journal shows neither the password nor a session token.
# The container has a network of its own (loopback only), so nothing in it meets the host's
# ports. Needs root (systemd-nspawn) and a merged /usr (Debian 12). Part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
    echo "systemd-check: $*" >&2
    exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root: systemd-nspawn boots the container"
command -v systemd-nspawn >/dev/null || fail "systemd-nspawn is missing (Debian's systemd-container)"
for link in bin lib lib64 sbin; do
    [ -L "/$link" ] || fail "/$link is not a link into /usr: the container shares only /usr with this host"
done

work=$(mktemp -d)
nspawn_pid=""
stop_container() {
    [ -n "$nspawn_pid" ] || return 0
    # systemd-nspawn turns SIGTERM into the container's orderly power-off.
    kill -TERM "$nspawn_pid" 2>/dev/null || true
    for _ in $(seq 1 300); do
        kill -0 "$nspawn_pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$nspawn_pid" 2>/dev/null || true
    wait "$nspawn_pid" 2>/dev/null || true
    nspawn_pid=""
}
cleanup() {
    stop_container
    rm -rf "$work"
}
trap cleanup EXIT

stage="$work/stage"
./scripts/install.sh --debug --destdir "$stage" --prefix /usr/local >/dev/null

# The container's root: links into /usr as on this host, its own /etc and /var.
root="$work/root"
mkdir -p "$root/usr" "$root/var" "$root/tmp" "$root/root" "$root/opt"
for link in bin lib lib64 sbin; do ln -s "usr/$link" "$root/$link"; done
cp -a /etc "$root/etc"
rm -f "$root/etc/os-release" "$root/etc/machine-id"
cp -L /usr/lib/os-release "$root/etc/os-release"
: >"$root/etc/machine-id"
# Libraries the binary loads from outside /usr (the debug build's Swift runtime in /opt/swift).
binds=(--bind-ro=/usr --bind-ro="$stage/usr/local:/usr/local")
while read -r folder; do
    mkdir -p "$root$folder"
    binds+=(--bind-ro="$folder")
done < <(ldd "$stage/usr/local/bin/accounts" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
    xargs -r -n1 dirname | grep -vE '^/(usr|lib|lib64)(/|$)' | sort -u)

systemd-nspawn --quiet --register=no --keep-unit --private-network --directory="$root" "${binds[@]}" \
    --machine="accounts-check-$$" --boot --console=pipe >"$work/console.log" 2>&1 </dev/null &
nspawn_pid=$!
init_pid=""
for _ in $(seq 1 300); do
    init_pid=$(pgrep -P "$nspawn_pid" -x systemd || true)
    [ -z "$init_pid" ] || break
    kill -0 "$nspawn_pid" 2>/dev/null || fail "systemd-nspawn exited before booting: $(cat "$work/console.log")"
    sleep 0.1
done
[ -n "$init_pid" ] || fail "no systemd started in the container within 30 s: $(cat "$work/console.log")"
namespaces=(--target "$init_pid" --mount --uts --ipc --net --pid)
inside() { nsenter "${namespaces[@]}" -- "$@"; }
# systemctl needs the manager's socket, which systemd opens early in its boot.
for _ in $(seq 1 300); do
    ! inside test -S /run/systemd/private || break
    sleep 0.1
done
# "degraded" is fine: the host's /etc may enable services that do not start in a container.
state=$(timeout 120 nsenter "${namespaces[@]}" -- systemctl is-system-running --wait 2>&1 || true)
case "$state" in
running | degraded) ;;
*) fail "the container's systemd did not finish booting (state '$state'): $(tail -20 "$work/console.log")" ;;
esac

journal() { inside journalctl --no-pager -o cat -u accounts; }
# Waits up to 60 s for the server's "Listening on" line number $1 in the journal.
wait_listening() {
    for _ in $(seq 1 600); do
        [ "$(journal | grep -c '^Listening on ')" -lt "$1" ] || return 0
        sleep 0.1
    done
    fail "the service did not print 'Listening on' ($1) within 60 s: $(journal | tail -20)"
}
# curl inside the container: the response body, then the status on a line of its own.
request() { inside curl -sS -m 30 -w '\n%{http_code}' "$@"; }
status_of() { tail -n1 <<<"$1"; }
body_of() { sed '$d' <<<"$1"; }
token_of() { body_of "$1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'; }
property() { inside systemctl show -p "$1" --value accounts; }

verify=$(inside systemd-analyze verify accounts.service 2>&1) ||
    fail "systemd-analyze verify accounts.service failed: $verify"
[ -z "$verify" ] || fail "systemd-analyze verify has something to say about the unit: $verify"
[ "$(property FragmentPath)" = /usr/local/lib/systemd/system/accounts.service ] ||
    fail "systemd loaded the unit from '$(property FragmentPath)', not /usr/local/lib/systemd/system"

inside systemctl enable --now accounts >/dev/null 2>&1 || fail "systemctl enable --now accounts failed: $(journal)"
wait_listening 1
journal | grep -qx 'Listening on http://127.0.0.1:8080' || fail "not listening on 127.0.0.1:8080: $(journal)"
health=$(request http://127.0.0.1:8080/healthz)
[ "$(status_of "$health")" = 200 ] || fail "/healthz answered: $health"
password="Tangerine-Kayak-42"
signup=$(request http://127.0.0.1:8080/v1/signup -H 'Content-Type: application/json' \
    -d "{\"email\":\"leesoon7@example.com\",\"password\":\"$password\",\"nickname\":\"이순신\"}")
[ "$(status_of "$signup")" = 201 ] || fail "the sign-up answered: $signup"
token=$(token_of "$signup")
store=/var/lib/private/accounts/accounts.sqlite
[ "$(inside readlink /var/lib/accounts)" = private/accounts ] || fail "/var/lib/accounts is not the dynamic user's state folder"
read -r mode owner < <(inside stat -c '%a %u' "$store") || fail "no store at $store: $(journal)"
[ "$mode" = 600 ] || fail "the store is mode $mode, not 600"
service_uid=$(inside stat -c %u "/proc/$(property MainPID)")
if [ "$owner" != "$service_uid" ] || [ "$owner" = 0 ]; then
    fail "the store is owned by uid $owner, not by the service's own ($service_uid)"
fi
# In the service's view of the file system only its state folder (and its own /tmp) is
# writable: probed as root there, so that only the mounts can refuse.
in_service() { inside nsenter --target "$(property MainPID)" --mount -- "$@"; }
in_service touch /var/lib/accounts/probe || fail "the service cannot write its state folder"
in_service rm /var/lib/accounts/probe
for folder in /etc /usr/local /var/lib /root /opt; do
    if in_service touch "$folder/accounts-probe" 2>/dev/null; then
        in_service rm -f "$folder/accounts-probe"
        fail "$folder is writable to the service"
    fi
done

inside systemctl stop accounts
[ "$(property ExecMainStatus)" = 0 ] || fail "the service exited with $(property ExecMainStatus) on stop"
[ "$(property Result)" = success ] || fail "the stop's result was $(property Result)"
journal | grep -qx 'Server stopped; the store is closed.' || fail "no graceful stop in the journal: $(journal | tail)"

inside systemctl start accounts
wait_listening 2
login=$(request http://127.0.0.1:8080/v1/login -H 'Content-Type: application/json' \
    -d "{\"email\":\"leesoon7@example.com\",\"password\":\"$password\"}")
[ "$(status_of "$login")" = 200 ] || fail "after a restart the login answered: $login"
second_token=$(token_of "$login")

inside mkdir -p /etc/accounts
printf 'server:\n  port: 8181\n' | inside tee /etc/accounts/config.yaml >/dev/null
inside chmod 644 /etc/accounts/config.yaml
inside systemctl restart accounts
wait_listening 3
journal | grep -qx 'Listening on http://127.0.0.1:8181' || fail "/etc/accounts/config.yaml was not read: $(journal | tail)"
me=$(request http://127.0.0.1:8181/v1/me -H "Authorization: Bearer $second_token")
[ "$(status_of "$me")" = 200 ] || fail "/v1/me answered: $me"

dropin=/etc/systemd/system/accounts.service.d
inside mkdir -p "$dropin"
printf '[Service]\nEnvironment=ACCOUNTS_SERVER_PORT=8282\n' | inside tee "$dropin/port.conf" >/dev/null
inside systemctl daemon-reload
inside systemctl restart accounts
wait_listening 4
journal | grep -qx 'Listening on http://127.0.0.1:8282' || fail "the drop-in's port did not win: $(journal | tail)"

# Files only root may read: a certificate and its key, handed over as credentials (%d is their
# folder), and below a PostgreSQL password file.
mkdir -m 700 "$root/etc/accounts-secrets"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$root/etc/accounts-secrets/key.pem" \
    -out "$root/etc/accounts-secrets/cert.pem" 2>/dev/null
chmod 600 "$root/etc/accounts-secrets/key.pem"
cat >"$root$dropin/port.conf" <<'UNIT'
[Service]
LoadCredential=tls.key:/etc/accounts-secrets/key.pem
LoadCredential=tls.crt:/etc/accounts-secrets/cert.pem
Environment=ACCOUNTS_SERVER_TLS_KEY=%d/tls.key ACCOUNTS_SERVER_TLS_CERTIFICATE=%d/tls.crt ACCOUNTS_SERVER_PORT=8443
UNIT
inside systemctl daemon-reload
inside systemctl restart accounts
wait_listening 5
journal | grep -qx 'Listening on https://127.0.0.1:8443' || fail "no HTTPS with the key as a credential: $(journal | tail)"
secure=$(request --cacert /etc/accounts-secrets/cert.pem https://127.0.0.1:8443/healthz)
[ "$(status_of "$secure")" = 200 ] || fail "/healthz over HTTPS answered: $secure"

# `accounts config` checks a PostgreSQL password file as the backend does before it connects
# (readable, mode 0600 or stricter), here run as a dynamic user of its own by systemd-run.
pg_password="Hidden-Word-91"
printf '%s\n' "$pg_password" >"$root/etc/accounts-secrets/pgpass"
chmod 600 "$root/etc/accounts-secrets/pgpass"
config_as_dynamic_user() {
    inside systemd-run --quiet --wait --pipe --unit="$1" -p DynamicUser=yes \
        -p Environment=ACCOUNTS_BACKEND=postgres "${@:2}" /usr/local/bin/accounts config </dev/null
}
status=0
config_as_dynamic_user accounts-password-file \
    -p Environment=ACCOUNTS_POSTGRES_PASSWORD_FILE=/etc/accounts-secrets/pgpass >/dev/null 2>"$work/direct.err" || status=$?
if [ "$status" != 8 ] || ! grep -q "'postgres.password_file'" "$work/direct.err"; then
    fail "a root-only password file did not fail the check (exit $status): $(cat "$work/direct.err")"
fi
config_as_dynamic_user accounts-password-credential -p LoadCredential=pgpass:/etc/accounts-secrets/pgpass \
    -p Environment=ACCOUNTS_POSTGRES_PASSWORD_FILE=/run/credentials/accounts-password-credential.service/pgpass \
    >"$work/config.out" 2>&1 || fail "the password file as a credential failed the check: $(cat "$work/config.out")"
grep -q '^postgres.password_file  *.*/run/credentials/' "$work/config.out" ||
    fail "accounts config does not show the credential's path: $(grep postgres "$work/config.out")"
if grep -qF "$pg_password" "$work/config.out"; then fail "accounts config shows the password"; fi

printf '[Service]\nEnvironment=ACCOUNTS_SERVER_PORT=70000\n' | inside tee "$dropin/port.conf" >/dev/null
inside systemctl daemon-reload
inside systemctl restart accounts || true
for _ in $(seq 1 300); do
    [ "$(property ActiveState)" != failed ] || break
    sleep 0.1
done
[ "$(property ActiveState)" = failed ] || fail "a port of 70000 left the unit $(property ActiveState)"
[ "$(property ExecMainStatus)" = 8 ] || fail "a port of 70000 exited with $(property ExecMainStatus), not 8"
# Restarted on failure, it would have come to "failed" only once the start limit stopped the
# restarts (5 in 10 s), so NRestarts tells without waiting any longer.
[ "$(property NRestarts)" = 0 ] || fail "systemd restarted a service whose setting is wrong ($(property NRestarts) times)"
journal | grep -q "Invalid configuration 'server.port'" || fail "the journal does not name the wrong key: $(journal | tail)"

log=$(inside journalctl --no-pager -o cat)
for secret in "$password" "$token" "$second_token" "$pg_password"; do
    if grep -qF "$secret" <<<"$log"; then fail "the journal shows a password or a token"; fi
done
stop_container
echo "systemd-check: passed (the installed unit under systemd $(systemctl --version | awk 'NR == 1 { print $2 }'):" \
    "found, verified, started as a dynamic user who writes only its state, stopped by SIGTERM, restarted with its store," \
    "config and drop-in read, HTTPS with a credential key, a credential password file, a bad setting not restarted," \
    "no secret in the journal)"
