# Sourced by the scripts that start `accounts serve` (or the bench baseline) in the background.
# wait_for_listening OUT LOG WHAT: waits up to 10 s for "Listening on URL" in OUT, sets $url;
# otherwise prints WHAT's log (LOG) and exits 1. The caller starts the server itself, so that
# its $! is the server's PID and not a subshell's (which a cleanup would kill in its place).
wait_for_listening() {
    local out=$1 log=$2 what=$3
    for _ in $(seq 1 200); do
        grep -q Listening "$out" 2>/dev/null && break
        sleep 0.05
    done
    url=$(sed -n 's/^Listening on //p' "$out")
    if [ -z "$url" ]; then
        echo "$what did not start:" >&2
        cat "$log" >&2 2>/dev/null || true
        exit 1
    fi
}
