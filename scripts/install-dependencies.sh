#!/usr/bin/env bash
# Installs the Debian packages AccountStore builds against, if any are missing.
# With --test-server, also what the test suite needs besides: PostgreSQL's server (it starts a
# throwaway cluster), a C compiler (for the fault-injection shim of scripts/fault-sweep.sh) and
# libfiu's fiu-run (its --fiu mode), openssl (the HTTPS and PostgreSQL TLS tests make their
# own certificates), zsh and fish (the completion tests press TAB in each), man-db (the
# install check renders the manual page with `man -l`), and systemd-nspawn and curl (the
# systemd check boots a container to run the installed unit and asks the server in it).
# With --browser, also the headless browser of scripts/browser-check.sh: Chromium, its
# WebDriver, and a font with Hangul so the Korean screenshots show text, not boxes.
# With --bench, also the benchmarks' tools: wrk (bench/serve.sh), hyperfine, jq and the sqlite3
# shell (bench/cli.sh), a C compiler (the raw-engine reference of bench/run.sh), and GNU time
# (bench/import.sh's peak memory).
# Uses sudo when not root; does nothing when everything is present.
set -euo pipefail

packages=(libsodium-dev libzxcvbn-dev libsqlite3-dev liblmdb-dev libcrypt-dev libssl-dev)
for option in "$@"; do
    case "$option" in
        --test-server) packages+=(postgresql gcc libc6-dev fiu-utils openssl zsh fish man-db systemd-container curl) ;;
        --browser) packages+=(chromium chromium-driver fonts-noto-cjk) ;;
        --bench) packages+=(wrk hyperfine jq sqlite3 gcc libc6-dev time) ;;
        *) echo "usage: $0 [--test-server] [--browser] [--bench]" >&2; exit 2 ;;
    esac
done

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "Installing missing Debian packages: ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "error: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
