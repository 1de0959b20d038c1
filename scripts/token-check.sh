#!/usr/bin/env bash
# Signed access tokens checked the way another service checks them: PyJWT 2.10.1 from PyPI,
# with only `/.well-known/jwks.json` of `accounts serve` (session.access_tokens: jwt).
# scripts/lib/token_check.py drives it: the claims (iss, aud, sub, number, sid, amr, exp), a
# changed token refused, Strapi's jwt, `accounts keys rotate` (old and new keys published, the
# server signing with the new one at once), a logout (this server refuses the token at once, a
# service with only the keys until it expires), `accounts keys rotate --now` (the old tokens
# refused everywhere), a refresh, the key file's mode, and no token or key in the log.
#
#   scripts/token-check.sh     a few seconds after the build (CI runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/check-server.sh

if ! python3 -c 'import jwt' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check 'PyJWT[crypto]==2.10.1'
fi
prepare_check_server token
ACCOUNTS_BIN=$accounts CHECK_HOME=$home python3 scripts/lib/token_check.py
