# Sourced by the bench scripts and scripts/install.sh: release_build PRODUCT... builds each
# product in release mode with the Swift standard library and Foundation linked statically (a
# start-up without the dynamic loader's ~11,000 symbol lookups), quietly unless it fails, and
# sets `bin` to the folder holding them. One flag set for every bench script and the install,
# so they share one release build instead of rebuilding each other's. BENCH_BUILD=debug uses the debug build instead: for a
# smoke run of a script (CI), whose figures mean nothing.
if [ "${BENCH_BUILD:-release}" = debug ]; then
    release_flags=(-c debug)
else
    release_flags=(-c release --static-swift-stdlib)
fi
# PREBUILT_BIN (scripts/test.sh sets it) names a debug build already made: with
# BENCH_BUILD=debug the products are taken from it, and SwiftPM, which holds a lock on .build
# while another check runs `swift test`, is not asked.
release_build() {
    local product build_log
    if [ "${BENCH_BUILD:-release}" = debug ] && [ -n "${PREBUILT_BIN:-}" ]; then
        bin=$PREBUILT_BIN
        for product in "$@"; do
            [ -x "$bin/$product" ] || { echo "PREBUILT_BIN has no $product: $bin" >&2; exit 1; }
        done
        return
    fi
    for product in "$@"; do
        # Quiet unless it fails; then its errors are the only useful output.
        if ! build_log=$(swift build "${release_flags[@]}" --product "$product" 2>&1); then
            echo "$build_log" >&2
            exit 1
        fi
    done
    bin="$(swift build "${release_flags[@]}" --show-bin-path)"
}
# release_build_package FOLDER PRODUCT: the same for a package of its own (a benchmark's
# reference program), setting `bin` to its folder.
release_build_package() {
    local build_log
    if ! build_log=$(swift build --package-path "$1" "${release_flags[@]}" --product "$2" 2>&1); then
        echo "$build_log" >&2
        exit 1
    fi
    bin="$(swift build --package-path "$1" "${release_flags[@]}" --show-bin-path)"
}
