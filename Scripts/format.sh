#!/usr/bin/env bash
# Formats every Swift file (tracked, or new and not ignored) as .swift-format says, then lints with its stricter rules (force
# unwraps, documentation comments, …), which a person fixes: CI runs the lint and fails on any finding.
#
#   Scripts/format.sh          # format in place, then lint
#   Scripts/format.sh --check  # lint only (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--check" ]; then
    git ls-files -z --cached --others --exclude-standard '*.swift' | xargs -0 swift format format --parallel --in-place
fi
git ls-files -z --cached --others --exclude-standard '*.swift' | xargs -0 swift format lint --strict --parallel
