# Sourced by api-check.sh and browser-check.sh, which each start `accounts serve` to check it
# from outside: prepare_check_server NAME builds `accounts` (debug), sets `accounts` to it,
# makes a scratch folder `home`, and on exit stops the server whose PID the script put in
# `server` and removes `home`.
prepare_check_server() {
    # PREBUILT_BIN (scripts/test.sh sets it): the debug build already made.
    if [ -n "${PREBUILT_BIN:-}" ]; then
        accounts=$PREBUILT_BIN/accounts
    else
        swift build --product accounts >/dev/null
        accounts="$(swift build --show-bin-path)/accounts"
    fi
    home=$(mktemp -d "${TMPDIR:-/tmp}/accounts-$1-XXXXXX")
    server=""
    trap stop_check_server EXIT
}

stop_check_server() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$home"
}
