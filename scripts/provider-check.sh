#!/usr/bin/env bash
# Signing in with providers, against real peers started here: django-oauth-toolkit 3.0.1 (from
# PyPI, on Django 5.2) as an OpenID Connect provider on loopback (OIDC on, RS256, PKCE required),
# and a stand-in serving GitHub's documented OAuth and REST shapes for the GitHub preset.
# scripts/lib/provider_check.py drives `accounts serve` through the whole flow as a client with
# a cookie jar: a new account, a code used twice, a changed state, another browser's callback, an
# unverified email, a password account's email (never signed in to, linked from its own session
# only), unlinking (never the last way in), GitHub's numeric id and primary verified email,
# Strapi's /api/connect and /api/auth/NAME/callback, the web pages' button and finish, and once
# in headless Chromium (required with CI=true, skipped with a reason elsewhere).
#
#   scripts/provider-check.sh     a few seconds after the build (CI runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/check-server.sh

if ! python3 -c 'import oauth2_provider, requests, selenium' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check 'django-oauth-toolkit==3.0.1' 'Django==5.2.*' requests \
        'selenium==4.40.0'
fi
prepare_check_server provider
ACCOUNTS_BIN=$accounts CHECK_HOME=$home python3 scripts/lib/provider_check.py
