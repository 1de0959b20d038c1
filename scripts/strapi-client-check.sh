#!/usr/bin/env bash
# A real Strapi client against `accounts serve`: strapi-client 5.2.1 from PyPI, as a Python app
# talks to Strapi's users-permissions plugin. scripts/lib/strapi_client_check.py registers two
# users through the client's own request method, authorizes (its `authorize`), reads
# `users/me` and validates it with the client's own `BaseDocument` model (an integer `id`,
# `documentId`, `createdAt`, `updatedAt`, `publishedAt`), changes the password (`updatedAt`
# moves, the old password no longer authorizes, the new one does), and asks `check_health()`.
#
#   scripts/strapi-client-check.sh     about 10 s after the build (CI runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/wait-for-listening.sh
. scripts/lib/check-server.sh

if ! python3 -c 'import strapi_client' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check 'strapi-client==5.2.1'
fi
prepare_check_server strapi-client

# Fast Argon2id (never for real accounts): the check is about the protocol, not hashing.
settings=(
    PATH="/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 ACCOUNTS_BACKEND=sqlite
    ACCOUNTS_HASHING_OPS_LIMIT=1 ACCOUNTS_HASHING_MEM_LIMIT_KIB=8
)
# Started directly, not through a function: $! must be the server itself.
env -i "${settings[@]}" "$accounts" serve --port 0 >"$home/serve.out" 2>"$home/serve.log" &
server=$!
wait_for_listening "$home/serve.out" "$home/serve.log" "accounts serve"
STRAPI_URL=$url python3 scripts/lib/strapi_client_check.py
