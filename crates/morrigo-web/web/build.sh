#!/usr/bin/env bash
# Bundle the page's sources (src/) with CodeMirror into ../assets/app.js.
# The bundle is committed, so `cargo build` needs no Node; run this after
# changing src/ (npm ci first). CI checks the committed bundle is current.
set -euo pipefail
cd "$(dirname "$0")"
[ -d node_modules ] || npm ci --no-audit --no-fund
node_modules/.bin/esbuild src/main.js --bundle --minify --format=iife --target=es2020 \
    --legal-comments=eof --log-level=warning --outfile=../assets/app.js
