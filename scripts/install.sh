#!/usr/bin/env bash
# Installs `accounts` for operators (`make install`): the release build the benchmarks measure
# (the standard library and Foundation linked statically, so the toolchain need not be on the
# host; debug info stripped), its manual page (swift-argument-parser's generate-manual, from
# the package graph), its TAB completion for bash, zsh and fish, where each shell looks for
# it under the prefix, and a systemd unit for `accounts serve` (Config/systemd/accounts.service,
# its ExecStart naming the installed binary), where systemd looks for it under /usr/local and
# /usr:
#
#   PREFIX/bin/accounts
#   PREFIX/share/man/man1/accounts.1
#   PREFIX/share/bash-completion/completions/accounts
#   PREFIX/share/zsh/site-functions/_accounts
#   PREFIX/share/fish/vendor_completions.d/accounts.fish
#   PREFIX/lib/systemd/system/accounts.service
#
#   scripts/install.sh                      builds as you, installs under /usr/local (sudo for the
#                                           copy alone when the prefix is not yours)
#   scripts/install.sh --prefix DIR         another prefix (~/.local: no sudo)
#   scripts/install.sh --destdir DIR        stage under DIR, as packagers do (DIR/PREFIX/...)
#   scripts/install.sh --uninstall          removes exactly those six files
#   scripts/install.sh --debug              the debug build instead: quick, for checking this
#                                           script (scripts/install-check.sh; CI)
#
# libsodium, libsqlite3, liblmdb, libcrypt and libcrypto are linked in from their static archives
# (the -dev packages), so a security update of one reaches the binary when it is built and
# installed again; it still loads libzxcvbn (Debian ships no position-independent archive of
# it): on a host that only gets the installed files, install Debian's libzxcvbn0.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr/local
destdir=""
uninstall=0
while [ $# -gt 0 ]; do
    case "$1" in
    --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
    --destdir) destdir=${2?--destdir needs a folder (empty: none)}; shift 2 ;;
    --uninstall) uninstall=1; shift ;;
    --debug) BENCH_BUILD=debug; shift ;;
    *) echo "usage: scripts/install.sh [--prefix DIR] [--destdir DIR] [--uninstall] [--debug]" >&2; exit 2 ;;
    esac
done
case "$prefix" in
/*) ;;
*) echo "error: --prefix must be an absolute path (it is where the files will be found): $prefix" >&2; exit 2 ;;
esac
root="$destdir$prefix"
files=(
    bin/accounts
    share/man/man1/accounts.1
    share/bash-completion/completions/accounts
    share/zsh/site-functions/_accounts
    share/fish/vendor_completions.d/accounts.fish
    lib/systemd/system/accounts.service
)

# The copy (never the build) runs under sudo when the prefix is not the caller's to write.
as_owner=()
nearest=$root
while [ ! -e "$nearest" ]; do nearest=$(dirname "$nearest"); done
if [ ! -w "$nearest" ] && [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "error: $root is not writable and sudo is missing: run as root, or choose --prefix" >&2
        exit 1
    fi
    as_owner=(sudo)
fi

if [ "$uninstall" -eq 1 ]; then
    removed=0
    for file in "${files[@]}"; do
        if [ -e "$root/$file" ]; then
            "${as_owner[@]}" rm -f "$root/$file"
            echo "removed $root/$file"
            removed=$((removed + 1))
        fi
    done
    [ "$removed" -gt 0 ] || echo "nothing to remove: none of the files an install puts under $root is there"
    exit 0
fi

# Under `sudo make install` the build itself would run as root and leave root-owned files in
# .build, which the next build as the user cannot replace.
if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    echo "note: building as root under sudo; next time run it without sudo (it uses sudo for the copy" \
        "alone), or give .build back with: sudo chown -R $SUDO_USER .build" >&2
fi

# The benchmarks' build (the same flags, so an install and a bench share one build).
. bench/lib/release-build.sh
echo "building accounts (${release_flags[*]}; a clean release build takes minutes)" >&2
release_build accounts generate-manual
staged=$(mktemp -d)
trap 'rm -rf "$staged"' EXIT
# Each file is made at its path under $staged/tree, so one list (`files`) says what is installed
# and what is removed.
tree="$staged/tree"
mkdir -p "$tree/bin" "$tree/share/man/man1" "$tree/share/bash-completion/completions" \
    "$tree/share/zsh/site-functions" "$tree/share/fish/vendor_completions.d" "$tree/lib/systemd/system"

# Debug info is about 61 of a release binary's 165 MiB; the symbol table stays, so a crash's
# backtrace still names its functions.
cp "$bin/accounts" "$tree/bin/accounts"
strip --strip-debug "$tree/bin/accounts"
# The manual's date is the commit's, so the same commit makes the same page. generate-manual
# drops every character that is not ASCII (the help's "…"), so it reads the help through a
# wrapper that spells each such character as a placeholder, turned back into UTF-8 after; and
# it leaves a blank line between paragraphs, which mdoc wants as `.Pp`.
date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
mkdir "$staged/ascii"
cat >"$staged/ascii/accounts" <<WRAPPER
#!/bin/sh
"$tree/bin/accounts" "\$@" | perl -CSD -pe 's/([^\x00-\x7F])/sprintf("\@\@U%X\@\@", ord \$1)/ge'
WRAPPER
chmod +x "$staged/ascii/accounts"
"$bin/generate-manual" "$staged/ascii/accounts" --date "$date" --output-directory "$tree/share/man/man1" >/dev/null
perl -CSD -i -pe 's/\@\@U([0-9A-F]+)\@\@/chr hex $1/ge; s/^$/.Pp/' "$tree/share/man/man1/accounts.1"
"$tree/bin/accounts" --generate-completion-script bash >"$tree/share/bash-completion/completions/accounts"
"$tree/bin/accounts" --generate-completion-script zsh >"$tree/share/zsh/site-functions/_accounts"
"$tree/bin/accounts" --generate-completion-script fish >"$tree/share/fish/vendor_completions.d/accounts.fish"
# The unit names the binary where it is installed. In a unit file `%` starts a specifier
# (written `%%` for itself), and a path with a space in it is quoted.
INSTALLED_BINARY="$prefix/bin/accounts" perl -pe '
    BEGIN { $path = $ENV{INSTALLED_BINARY} =~ s/%/%%/gr; $path = "\"$path\"" if $path =~ /\s/ }
    $changed += s{^ExecStart=/usr/local/bin/accounts }{ExecStart=$path };
    END { unless ($changed) { print STDERR "error: no ExecStart=/usr/local/bin/accounts line in the unit\n"; $? = 1 } }' \
    Config/systemd/accounts.service >"$tree/lib/systemd/system/accounts.service"

for file in "${files[@]}"; do
    mode=644
    [ "$file" != bin/accounts ] || mode=755
    "${as_owner[@]}" install -D -m "$mode" "$tree/$file" "$root/$file"
    echo "installed $root/$file"
done
