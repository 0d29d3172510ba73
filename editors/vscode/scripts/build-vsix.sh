#!/usr/bin/env bash
# Build the VS Code extension into editors/vscode/flowdrop-lsp.vsix, offline
# (npm registry only): npm ci -> tsc type-check -> esbuild bundle -> vsce package.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # Install scripts of esbuild/keytar/vsce-sign are denied in package.json
  # (allowScripts): none of them is needed to bundle or package.
  npm ci --no-audit --no-fund --loglevel=error
fi

npx --no-install tsc -p . --noEmit
rm -rf out
npx --no-install esbuild src/extension.ts --bundle --platform=node --format=cjs \
  --target=node20 --external:vscode --outfile=out/extension.js --log-level=warning
rm -f flowdrop-lsp.vsix
npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license \
  --no-rewrite-relative-links --no-update-package-json -o flowdrop-lsp.vsix
ls -l flowdrop-lsp.vsix
