#!/usr/bin/env bash
# Builds the DocC catalogs of the public modules (the ones .spi.yml lists) and the engine's
# (its architecture article, for contributors) into
# .build/docs/<Module>.doccarchive; any DocC warning — an unresolved link, a missing article — fails.
#
#   Scripts/docs.sh                  # every catalog
#   Scripts/docs.sh KeychainServices # one
#
# It needs the debug build (`swift build`) and the toolchain's docc; it adds no package dependency.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
    modules=(KeychainServices LocalAuth SoftwareEnclave KeychainContract KeychainDevice KeychainTesting KeychainEngine)
fi

docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
[ -x "$docc" ] || { echo "docs.sh: docc is not in this toolchain" >&2; exit 1; }

# Where SwiftPM writes the symbol graphs depends on its build system: take it from its own report.
dump=$(swift package dump-symbol-graph --minimum-access-level public)
graphs=$(sed -n 's/^Files written to //p' <<<"$dump" | tail -n 1)
[ -d "$graphs" ] || { echo "docs.sh: no symbol graphs (swift package dump-symbol-graph said: $dump)" >&2; exit 1; }
output=.build/docs
mkdir -p "$output"
selected=$(mktemp -d)
trap 'rm -rf "$selected"' EXIT
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "docs.sh: $catalog does not exist" >&2; exit 1; }
    rm -rf "${selected:?}"/*
    rm -rf "$output/$module.doccarchive"
    cp "$graphs/$module.symbols.json" "$selected/"
    cp "$graphs/$module"@*.symbols.json "$selected/" 2>/dev/null || true
    "$docc" convert "$catalog" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.swift-keychain.$module" \
        --additional-symbol-graph-dir "$selected" \
        --output-path "$output/$module.doccarchive" \
        --warnings-as-errors
    echo "docs.sh: $module → $output/$module.doccarchive"
done
