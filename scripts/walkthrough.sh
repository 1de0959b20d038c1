#!/usr/bin/env bash
# The documents' walkthroughs, from a real run: runs each command below with the built `accounts`
# in a fresh, empty home folder and prints the console transcript. The first is the README's; the
# second talks to `accounts serve` with curl (the Serving article), the third shows
# `accounts config` (the Configuration article).
#   scripts/walkthrough.sh           print them
#   scripts/walkthrough.sh --update  rewrite each document's block between its walkthrough markers
#   scripts/walkthrough.sh --check   fail if a document's block differs from a fresh run (ids and
#                                    times aside); scripts/test.sh runs this, so it cannot drift
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-print}

# PREBUILT_BIN (scripts/test.sh sets it): the debug build already made.
if [ -n "${PREBUILT_BIN:-}" ]; then
    bin=$PREBUILT_BIN
else
    swift build --product accounts >/dev/null
    bin="$(swift build --show-bin-path)"
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/bin"
ln -s "$bin/accounts" "$home/bin/accounts"

# Each line is one command as a reader would type it.
commands=(
    "accounts start"
    "printf 'Tangerine-Kayak-42\\nTangerine-Kayak-42\\n' | accounts signup --email leesoon7@example.com --nickname 이순신 --password-stdin"
    "accounts start"
    "accounts start --lang ko"
    "accounts logout"
    "accounts start"
    "printf 'Tangerine-Kayak-42\\n' | accounts login --email leesoon7@Example.com --remember --password-stdin"
    "accounts whoami --json"
    "accounts users show leesoon7@example.com"
    "printf 'Tangerine-Kayak-42\\n' | accounts withdraw --yes --password-stdin"
    "printf 'x\\nx\\n' | accounts signup --email leesoon7@example.com --nickname 이순신 --password-stdin --json; echo \"exit \$?\""
    "accounts verify | tail -2"
)

# Settings: what `accounts config` shows for a config file and a variable, and a refused value.
# The rows shown name no path, so the transcript is the run's output as it was printed (the
# fresh home folder's path would differ from run to run).
config_commands=(
    "printf 'server:\\n  host: 0.0.0.0\\n  trusted_proxies: \"10.0.0.0/8\"\\n' > accounts.yaml"
    "ACCOUNTS_SERVER_PORT=9000 accounts config --config accounts.yaml | grep -E '^(backend|server\\.(host|port|trusted))'"
    "ACCOUNTS_SERVER_PORT=70000 accounts config --config accounts.yaml; echo \"exit \$?\""
)

# The console transcript of the commands given, each run in the fresh home folder.
transcript() {
    echo '```console'
    for command in "$@"; do
        echo "\$ $command"
        (cd "$home" && env -i PATH="$home/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 bash -c "$command" 2>&1) || true
    done
    echo '```'
}

# The service: one shell, so $TOKEN carries from one command to the next. The server listens on
# a free port; the transcript shows 8080, as a reader's would.
serve_commands=(
    "accounts serve &"
    "curl -s localhost:8080/healthz"
    "curl -s -w ' %{http_code}\\n' localhost:8080/v1/signup -H 'Content-Type: application/json' -d '{\"email\":\"Lee@example.com\",\"password\":\"leesoon\",\"nickname\":\"이\"}'"
    "curl -s localhost:8080/v1/signup -H 'Content-Type: application/json' -d '{\"email\":\"leesoon7@example.com\",\"password\":\"Tangerine-Kayak-42\",\"nickname\":\"이순신\"}'"
    "curl -s -w ' %{http_code}\\n' localhost:8080/v1/signup -H 'Content-Type: application/json' -d '{\"email\":\"leesoon7@example.com\",\"password\":\"Tangerine-Kayak-42\",\"nickname\":\"이순신\"}'"
    "TOKEN=\$(curl -s localhost:8080/v1/login -H 'Content-Type: application/json' -d '{\"email\":\"leesoon7@example.com\",\"password\":\"Tangerine-Kayak-42\",\"remember\":true}' | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"token\"])')"
    "curl -s localhost:8080/v1/me -H \"Authorization: Bearer \$TOKEN\" -H 'Accept-Language: ko'"
    "curl -s localhost:8080/api/auth/local -H 'Content-Type: application/json' -d '{\"identifier\":\"leesoon7@example.com\",\"password\":\"wrong-password\"}'"
    "curl -s -X POST localhost:8080/v1/logout -H \"Authorization: Bearer \$TOKEN\""
    "curl -s -w ' %{http_code}\\n' localhost:8080/v1/me -H \"Authorization: Bearer \$TOKEN\""
    "kill %1; wait"
)

serve_transcript() {
    local port script="$home/serve-walkthrough.sh"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    {
        echo 'set +e'
        for command in "${serve_commands[@]}"; do
            printf 'echo %q\n' "\$ $command"
            if [ "$command" = "accounts serve &" ]; then
                # Wait for the line that says it listens, then show it.
                echo "accounts serve --port $port >serve.out 2>/dev/null &"
                echo 'until grep -q Listening serve.out 2>/dev/null; do sleep 0.1; done; cat serve.out'
            elif [ "$command" = "kill %1; wait" ]; then
                echo 'kill %1; wait; tail -n +2 serve.out'
            else
                echo "${command//localhost:8080/127.0.0.1:$port}; echo"
            fi
        done
    } >"$script"
    echo '```console'
    (cd "$home" && env -i PATH="$home/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 bash "$script" 2>&1) |
        sed -E "s/127\.0\.0\.1:$port/127.0.0.1:8080/g" | sed '/^$/d'
    echo '```'
}

config_transcript() { transcript "${config_commands[@]}"; }

# Ids, tokens and times differ from run to run.
normalize() { sed -E 's/"device_token":"[^"]*"/"device_token":"<device token>"/g; s/\b[0-9a-f]{64}\b/<token>/g; s/\b[0-9a-f]{32}\b/<id>/g; s/"created_at_ms":[0-9]+/"created_at_ms":<ms>/g; s/"expires_at_ms":[0-9]+/"expires_at_ms":<ms>/g; s/"disk_free_bytes":[0-9]+/"disk_free_bytes":<bytes>/g; s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/<time>/g'; }

# The document that holds each walkthrough, between `<!-- NAME:begin -->` and `<!-- NAME:end -->`.
declare -A documents=(
    [walkthrough]=README.md
    [serve-walkthrough]=Sources/AccountsCLI/AccountsCLI.docc/Serving.md
    [config-walkthrough]=Sources/AccountsCLI/AccountsCLI.docc/Configuration.md
)
document_block() { sed -n "/<!-- $1:begin -->/,/<!-- $1:end -->/p" "${documents[$1]}" | sed '1d;$d'; }

case "$mode" in
print) transcript "${commands[@]}"; serve_transcript | normalize; config_transcript ;;
--update)
    fresh=$(transcript "${commands[@]}")
    fresh_serve=$(serve_transcript | normalize)
    fresh_config=$(config_transcript)
    python3 - "$fresh" "$fresh_serve" "$fresh_config" "${documents[walkthrough]}" \
        "${documents[serve-walkthrough]}" "${documents[config-walkthrough]}" <<'PY'
import sys
names = ("walkthrough", "serve-walkthrough", "config-walkthrough")
for name, block, path in zip(names, sys.argv[1:4], sys.argv[4:7]):
    text = open(path).read()
    begin, end = "<!-- %s:begin -->\n" % name, "<!-- %s:end -->" % name
    start = text.index(begin) + len(begin)
    stop = text.index(end)
    open(path, "w").write(text[:start] + block + "\n" + text[stop:])
PY
    echo "walkthroughs updated: ${documents[*]}" ;;
--check)
    # differs NAME FRESH: fails, naming the document, when its block is not the fresh run.
    differs() {
        echo "${documents[$1]}: the $1 block differs from a fresh run: run scripts/walkthrough.sh --update and review" >&2
        exit 1
    }
    diff <(document_block walkthrough | normalize) <(transcript "${commands[@]}" | normalize) || differs walkthrough
    diff <(document_block serve-walkthrough | normalize) <(serve_transcript | normalize) || differs serve-walkthrough
    diff <(document_block config-walkthrough) <(config_transcript) || differs config-walkthrough
    echo "walkthroughs match a fresh run: ${documents[*]}" ;;
*) echo "usage: scripts/walkthrough.sh [--update|--check]" >&2; exit 2 ;;
esac
