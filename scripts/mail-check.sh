#!/usr/bin/env bash
# Forgot password end to end, with a real SMTP relay: aiosmtpd 1.4.6 from PyPI on loopback,
# writing what it accepts to a Maildir. scripts/lib/mail_check.py drives `accounts serve` and
# the CLI through the native, Strapi and CLI fronts:
#   - STARTTLS required, the relay's certificate self-signed (trusted through mail.ca_file);
#   - the relay down when the mail is asked for, and the server SIGKILLed before it comes back:
#     the mail arrives after both return, once;
#   - a relay that answers 451 first, then takes the mail;
#   - a plain relay on loopback (mail.tls none) for the Strapi routes and the CLI;
#   - codes used twice, guessed, for an unknown address (the same answer), and the metrics.
#
#   scripts/mail-check.sh     about 10 s after the build (CI runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/check-server.sh

if ! python3 -c 'import aiosmtpd' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check 'aiosmtpd==1.4.6'
fi
prepare_check_server mail
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost \
    -keyout "$home/relay.key" -out "$home/relay.pem" 2>/dev/null
ACCOUNTS_BIN=$accounts CHECK_HOME=$home python3 scripts/lib/mail_check.py
