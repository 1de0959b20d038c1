#!/usr/bin/env bash
# Checks the live API against its OpenAPI document with schemathesis (PyPI), on each embedded
# backend (sqlite, lmdb, json): starts `accounts serve` on a free loopback port over a new store,
# lets schemathesis generate requests for every operation (valid and invalid bodies, missing
# and forged tokens) and chain them along the document's links (a sign-up's token to /v1/me, a
# password change, a logout, a withdrawal), and fails on any 5xx, any status, header or body
# the document does not describe, a valid request refused for a reason the document does not
# list as beyond its schema, or an operation that never succeeded. scripts/lib/api_check_hooks.py
# holds the checks and generators of our own.
#
#   scripts/api-check.sh              a bounded run (--max-examples 30 per operation; CI)
#   scripts/api-check.sh --examples N more examples per operation
#   API_CHECK_BACKENDS="lmdb" scripts/api-check.sh    only these backends
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/wait-for-listening.sh
. scripts/lib/check-server.sh
examples=30
if [ "${1:-}" = "--examples" ]; then examples=$2; fi
backends=${API_CHECK_BACKENDS:-sqlite lmdb json}

if ! command -v schemathesis >/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check 'schemathesis==4.32.5'
fi
prepare_check_server api-check

cat >"$home/schemathesis.toml" <<TOML
# The stateful phase chains calls along the document's links: valid requests only, and enough
# scenarios that each link is followed.
[phases.stateful.generation]
mode = "positive"
max-examples = $((examples * 5))

# A 400 to an allowed request is judged by scripts/lib/api_check_hooks.py: only the reasons an
# operation lists in x-rules-beyond-schema pass.
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]
TOML

# An account whose token the hooks (KnownAccount) get from /v1/login, so the signed-in routes
# are tried with a valid token too, not only missing and forged ones.
email=leesoon7@example.com
password="Tangerine-Kayak-42"

# The routes of a sign-in flow need a provider and a client that went through it; this server
# has none, so they could only answer 404 here, and would spend the stateful phase's scenarios.
# scripts/provider-check.sh drives them against django-oauth-toolkit and a GitHub stand-in;
# OpenAPITests holds the router and the document to the same operations.
needs_a_provider='^/(v1/providers/|api/connect/|api/auth/[^/]+/callback|v1/identities/)'

for backend in $backends; do
    mkdir "$home/$backend"
    # Fast Argon2id (never for real accounts), and limits and a login throttle high enough that
    # generated requests are checked rather than refused with 429 (429 is documented, and
    # tested on its own): schemathesis's wrong passwords, all from one client and no known
    # device, would otherwise fill the account's ceiling and refuse the logins that fetch its
    # token.
    settings=(
        PATH="/usr/bin:/bin" HOME="$home/$backend" LANG=C.UTF-8 ACCOUNTS_BACKEND="$backend"
        ACCOUNTS_HASHING_OPS_LIMIT=1 ACCOUNTS_HASHING_MEM_LIMIT_KIB=8
        ACCOUNTS_SERVER_SIGNUPS_PER_MINUTE=1000000 ACCOUNTS_SERVER_LOGINS_PER_MINUTE=1000000
        ACCOUNTS_SERVER_PASSWORD_CHECKS_PER_MINUTE=1000000 ACCOUNTS_LOGIN_THROTTLE_AFTER=1000
        ACCOUNTS_LOGIN_ACCOUNT_CEILING=1000000
    )
    printf '%s\n%s\n' "$password" "$password" |
        env -i "${settings[@]}" "$accounts" signup --email "$email" --nickname 이순신 --password-stdin >/dev/null
    # Started directly, not through a function: $! must be the server itself, or the cleanup
    # would stop only a subshell and leave the server running.
    env -i "${settings[@]}" "$accounts" serve --port 0 >"$home/$backend/serve.out" 2>"$home/$backend/serve.log" &
    server=$!
    wait_for_listening "$home/$backend/serve.out" "$home/$backend/serve.log" "accounts serve"
    echo "schemathesis against $url on $backend ($examples examples per operation)"
    API_CHECK_URL=$url API_CHECK_EMAIL=$email API_CHECK_PASSWORD=$password \
        SCHEMATHESIS_HOOKS=api_check_hooks PYTHONPATH="$PWD/scripts/lib${PYTHONPATH:+:$PYTHONPATH}" \
        schemathesis --config-file "$home/schemathesis.toml" --no-color run "$url/openapi.json" \
        --checks all --max-examples "$examples" --seed 1 --request-timeout 30 \
        --exclude-path-regex "$needs_a_provider"
    kill "$server"
    wait "$server" || true
    server=""
done
