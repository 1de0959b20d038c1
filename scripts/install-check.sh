#!/usr/bin/env bash
# Checks `make install` (scripts/install.sh) staged under a scratch DESTDIR, on the debug build
# (the release build is the same script with the benchmarks' flags and takes minutes more):
# exactly the six files land under the prefix; the binary runs from there, is stripped of
# debug info but keeps its symbols, and is position-independent with its relative relocations
# packed (DT_RELR, Package.swift's startUpLinking), without libcrypto's EVP interface; the manual renders without a warning, names every
# subcommand `accounts --help` lists and keeps the help's non-ASCII text; each completion script
# is what `accounts --generate-completion-script` prints, passes its shell's syntax check, and
# fish finds it where the prefix puts it; zsh searches that folder; the systemd unit starts the
# installed binary (quoted, and its `%` doubled, under a prefix that needs it; scripts/
# systemd-check.sh runs the unit under systemd); `--uninstall` removes every
# file it installed, and says so when there is nothing left to remove; and a relative prefix
# is refused.
set -euo pipefail
cd "$(dirname "$0")/.."

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
fail() {
    echo "install-check: $*" >&2
    exit 1
}
prefix=/usr/local
root="$stage$prefix"
./scripts/install.sh --debug --destdir "$stage" --prefix "$prefix"
built="${PREBUILT_BIN:-$(swift build --show-bin-path)}/accounts"
installed="$root/bin/accounts"

expected=$(printf '%s\n' ./bin/accounts ./lib/systemd/system/accounts.service \
    ./share/bash-completion/completions/accounts ./share/fish/vendor_completions.d/accounts.fish \
    ./share/man/man1/accounts.1 ./share/zsh/site-functions/_accounts | LC_ALL=C sort)
actual=$(cd "$stage" && find . -type f | sed "s|^\./${prefix#/}/|./|" | LC_ALL=C sort)
[ "$actual" = "$expected" ] || fail "installed files differ from the six expected:
$actual"

[ "$("$installed" --version)" = "$("$built" --version)" ] || fail "the installed binary's --version differs from the build's"
sections=$(readelf -S --wide "$installed")
if grep -q '\.debug_info' <<<"$sections"; then fail "the installed binary still has debug info"; fi
grep -q '\.symtab' <<<"$sections" || fail "the installed binary lost its symbol table (backtraces would name no function)"
dynamic=$(readelf -d "$installed")
grep -q 'Flags: PIE' <<<"$dynamic" || fail "the installed binary is not position-independent (its addresses would not be randomized)"
grep -q '(RELR)' <<<"$dynamic" ||
    fail "the installed binary's relative relocations are not packed (no DT_RELR): every start would read 3.6 MB of them"
# AccountCrypto takes libcrypto's digests and AES alone (Sources/COpenSSLCrypto/shim.h): its EVP
# interface would link OpenSSL's provider tables in, 0.5–1 ms of every start.
if nm "$installed" | grep -q ' [A-Za-z] EVP_'; then
    fail "OpenSSL's EVP interface is linked into the installed binary (its provider tables cost every start 0.5-1 ms)"
fi

manual="$root/share/man/man1/accounts.1"
warnings=$(LANG=C.UTF-8 MANWIDTH=100 man -l "$manual" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man -l warns about the manual: $warnings"
page=$(LANG=C.UTF-8 MANWIDTH=200 man -l "$manual" 2>/dev/null)
subcommands=$("$built" --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | awk '/^  [a-z]/ { print $1 }')
[ "$(wc -l <<<"$subcommands")" -ge 15 ] || fail "found only these subcommands in --help: $subcommands"
for subcommand in $subcommands; do
    grep -qE "^ +$subcommand( |$)" <<<"$page" || fail "the manual has no entry for '$subcommand'"
done
grep -qF '{"ok":true,…}' <<<"$page" || fail "the manual lost the help's non-ASCII text ('…')"

for shell in bash zsh fish; do
    case $shell in
    bash) file=share/bash-completion/completions/accounts ;;
    zsh) file=share/zsh/site-functions/_accounts ;;
    fish) file=share/fish/vendor_completions.d/accounts.fish ;;
    esac
    cmp -s "$root/$file" <("$built" --generate-completion-script "$shell") ||
        fail "$file is not what 'accounts --generate-completion-script $shell' prints"
    "$shell" -n "$root/$file" || fail "$shell finds a syntax error in $file"
done
# fish looks in DATA_DIR/fish/vendor_completions.d for each of XDG_DATA_DIRS (/usr/local/share
# among them by default), and the script asks the `accounts` on the PATH.
offered=$(PATH="$root/bin:$PATH" XDG_DATA_DIRS="$root/share" HOME="$stage/home" XDG_CONFIG_HOME="$stage/home" \
    fish -c 'complete -C "accounts ser"')
grep -q '^serve' <<<"$offered" || fail "fish did not load the installed completion: offered '$offered'"
zsh -f -c 'print -l $fpath' | grep -qx "$prefix/share/zsh/site-functions" ||
    fail "zsh does not search $prefix/share/zsh/site-functions"

unit="$root/lib/systemd/system/accounts.service"
grep -qxF "ExecStart=$prefix/bin/accounts serve" "$unit" ||
    fail "the unit does not start $prefix/bin/accounts: $(grep '^ExecStart' "$unit")"
odd_prefix="/opt/my accounts%1"
./scripts/install.sh --debug --destdir "$stage/odd" --prefix "$odd_prefix" >/dev/null
grep -qxF 'ExecStart="/opt/my accounts%%1/bin/accounts" serve' "$stage/odd$odd_prefix/lib/systemd/system/accounts.service" ||
    fail "under '$odd_prefix' the unit says: $(grep '^ExecStart' "$stage/odd$odd_prefix/lib/systemd/system/accounts.service")"
rm -rf "$stage/odd"

./scripts/install.sh --destdir "$stage" --prefix "$prefix" --uninstall
left=$(find "$stage" -type f)
[ -z "$left" ] || fail "--uninstall left: $left"
again=$(./scripts/install.sh --destdir "$stage" --prefix "$prefix" --uninstall)
grep -q "^nothing to remove" <<<"$again" || fail "a second --uninstall did not say there was nothing to remove: $again"

status=0
./scripts/install.sh --prefix relative/folder --uninstall 2>/dev/null || status=$?
[ "$status" = 2 ] || fail "a relative --prefix gave exit $status, not 2"
echo "install-check: passed (six files staged under $prefix, the manual, three completions, the unit, uninstall)"
