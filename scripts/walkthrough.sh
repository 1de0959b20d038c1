#!/usr/bin/env bash
# The README's walkthrough, from a real run: runs each command below with the built `accounts`
# in a fresh, empty home folder and prints the console transcript.
#   scripts/walkthrough.sh           print it
#   scripts/walkthrough.sh --update  rewrite the README block between the walkthrough markers
#   scripts/walkthrough.sh --check   fail if the README block differs from a fresh run (ids and
#                                    times aside); scripts/test.sh runs this, so it cannot drift
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-print}

swift build --product accounts >/dev/null
bin="$(swift build --show-bin-path)"
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

transcript() {
    echo '```console'
    for command in "${commands[@]}"; do
        echo "\$ $command"
        (cd "$home" && env -i PATH="$home/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 bash -c "$command" 2>&1) || true
    done
    echo '```'
}

# Ids and times differ from run to run.
normalize() { sed -E 's/\b[0-9a-f]{32}\b/<id>/g; s/"created_at_ms":[0-9]+/"created_at_ms":<ms>/g; s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/<time>/g'; }

readme_block() { sed -n '/<!-- walkthrough:begin -->/,/<!-- walkthrough:end -->/p' README.md | sed '1d;$d'; }

case "$mode" in
print) transcript ;;
--update)
    fresh=$(transcript)
    python3 - "$fresh" <<'PY'
import re, sys
text = open("README.md").read()
begin, end = "<!-- walkthrough:begin -->\n", "<!-- walkthrough:end -->"
start = text.index(begin) + len(begin)
stop = text.index(end)
open("README.md", "w").write(text[:start] + sys.argv[1] + "\n" + text[stop:])
PY
    echo "README.md walkthrough updated" ;;
--check)
    if ! diff <(readme_block | normalize) <(transcript | normalize); then
        echo "README walkthrough differs from a fresh run: run scripts/walkthrough.sh --update and review" >&2
        exit 1
    fi
    echo "README walkthrough matches a fresh run" ;;
*) echo "usage: scripts/walkthrough.sh [--update|--check]" >&2; exit 2 ;;
esac
