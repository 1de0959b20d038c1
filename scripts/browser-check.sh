#!/usr/bin/env bash
# The web pages in a real browser: starts `accounts serve` on a free loopback port over a new
# SQLite store and runs scripts/browser/flow.py (headless Chromium through Selenium, axe-core
# for accessibility) — the whole flow with JavaScript, without it, and in Korean, a forgotten
# password included (its mail taken by a real relay, aiosmtpd, on loopback).
#
#   scripts/browser-check.sh                  the check (CI installs the browser first)
#   scripts/browser-check.sh --screenshots    also rewrites docs/screenshots/ (phone size)
#
# Without Chromium and its driver this says SKIPPED and why, and exits 0 on a developer's
# machine; with CI=true a missing browser is an error (scripts/test.sh installs it first).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/wait-for-listening.sh
. scripts/lib/check-server.sh
screenshots=()
if [ "${1:-}" = "--screenshots" ]; then screenshots=(--screenshots "$PWD/docs/screenshots"); fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if [ "${CI:-}" = "true" ]; then
        echo "error: chromium and chromium-driver are missing (scripts/install-dependencies.sh --browser)" >&2
        exit 1
    fi
    echo "SKIPPED browser check: chromium and chromium-driver are not installed;" \
        "run scripts/install-dependencies.sh --browser, then this again."
    exit 0
fi
if ! python3 -c "import selenium, axe_core_python, aiosmtpd" 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check 'selenium==4.40.0' 'axe-core-python==0.1.0' \
        'aiosmtpd==1.4.6'
fi
prepare_check_server browser-check
# A real relay on loopback for the forgotten password's mail, writing to a Maildir.
relay_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m aiosmtpd -n -l "127.0.0.1:$relay_port" -c aiosmtpd.handlers.Mailbox "$home/maildir" 2>"$home/relay.log" &
relay=$!
trap 'kill "$relay" 2>/dev/null || true; stop_check_server' EXIT
export MAILDIR="$home/maildir"

# The default Argon2id cost and settings, so the browser sees what a person would, except the
# per-client limits: the flow's people (one per variant) share one address and run within a
# minute, so each limit is the default times the variants (password checks 14: the forgotten
# password adds its request and its reset; a CI run once went over the default 10
# password checks a minute in its third variant: the limits count per clock minute, so whether a
# run's 12 or so fall into one depends on its speed). WebPagesTests cover the limits themselves.
people=$(echo "${BROWSER_VARIANTS:-en-js,en-nojs,ko-js}" | tr ',' '\n' | wc -l)
env -i PATH="/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 \
    ACCOUNTS_SERVER_SIGNUPS_PER_MINUTE=$((10 * people)) \
    ACCOUNTS_SERVER_LOGINS_PER_MINUTE=$((30 * people)) \
    ACCOUNTS_SERVER_PASSWORD_CHECKS_PER_MINUTE=$((14 * people)) \
    ACCOUNTS_MAIL_SMTP_HOST=127.0.0.1 ACCOUNTS_MAIL_SMTP_PORT="$relay_port" ACCOUNTS_MAIL_TLS=none \
    ACCOUNTS_MAIL_FROM=accounts@example.com ACCOUNTS_MAIL_RETRY_SECONDS=1 \
    "$accounts" serve --port 0 --store "$home/accounts.sqlite" >"$home/serve.out" 2>"$home/serve.log" &
server=$!
wait_for_listening "$home/serve.out" "$home/serve.log" "accounts serve"
python3 scripts/browser/flow.py --base "$url" "${screenshots[@]}"
# Stopped first: the server writes its log lines in batches, and the last ones go out as it
# stops, so only then is the log whole.
kill -TERM "$server"
if ! wait "$server"; then
    echo "FAIL accounts serve did not stop cleanly on SIGTERM" >&2
    exit 1
fi
server=""
# The request log must never hold a password or a token (the flow typed both).
if grep -E -q 'Tangerine-Kayak-42|Walrus-Harbor-Lantern-7|accounts_session=' "$home/serve.log"; then
    echo "FAIL the server's log holds a password or a session cookie" >&2
    exit 1
fi
echo "server log: no password or session token in $(wc -l <"$home/serve.log") lines"
