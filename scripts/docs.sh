#!/usr/bin/env bash
# Builds the DocC catalogs of the public libraries with warnings as errors, so a broken symbol
# link, an undocumented parameter or a missing article fails the build. The archives land in
# .build/plugins/Swift-DocC/outputs/; `swift package --disable-sandbox preview-documentation
# --target AccountCore` serves one while you write.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package generate-documentation --warnings-as-errors \
    --target AccountCore --target AccountBackendKit --target AccountConformance \
    --target AccountOperations --target AccountServer --target AccountWeb --target AccountsCLI
