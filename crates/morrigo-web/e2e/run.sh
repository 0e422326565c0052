#!/usr/bin/env bash
# The playground's end-to-end tests in Chromium (Debian's `chromium`).
# Needs target/debug/morrigo (cargo build -p morrigo-cli); installs
# playwright-core with `npm ci` on first use. Screenshots: target/e2e/.
set -euo pipefail
cd "$(dirname "$0")"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
exec node run.mjs "$@"
