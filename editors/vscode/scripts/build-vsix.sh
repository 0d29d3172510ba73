#!/usr/bin/env bash
# Build the VS Code extension into editors/vscode/flowdrop-lsp.vsix:
#   1. bundle the server: flowdrop_lsp and its dependencies for CPython 3.10-3.14 into bundled/
#      (scripts/bundle_server.py; needs python3 >= 3.11 and uv, which it pip-installs into
#      build/tools when uv is not on PATH; PyPI the first time, uv's cache after);
#   2. npm ci -> tsc type-check -> esbuild bundle -> vsce package (npm registry the first time).
# The .vsix is for the platform it is built on (linux-x64 here): the bundle holds compiled
# wheels (rpds-py, PyYAML's libyaml).
set -euo pipefail
cd "$(dirname "$0")/.."

"${PYTHON:-python3}" scripts/bundle_server.py

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # Install scripts of esbuild/keytar/vsce-sign are denied in package.json
  # (allowScripts): none of them is needed to bundle or package.
  npm ci --no-audit --no-fund --loglevel=error
fi

npx --no-install tsc -p . --noEmit
# Unit tests of what needs no VS Code: the path expansion of flowdrop.server.path, the launcher.
npm test --silent >/dev/null || { npm test; exit 1; }
rm -rf out
npx --no-install esbuild src/extension.ts --bundle --platform=node --format=cjs \
  --target=node20 --external:vscode --outfile=out/extension.js --log-level=warning
find bundled -name __pycache__ -prune -exec rm -rf {} +
# The compiled wheels in bundled/ make the .vsix platform-specific: say so in its manifest, so
# that VS Code on another platform refuses to install it instead of failing at start-up.
case "$(python3 -c 'import json; print(json.load(open("bundled/manifest.json"))["platform"])')" in
  linux-x86_64) TARGET=linux-x64 ;;
  linux-aarch64) TARGET=linux-arm64 ;;
  *) echo "build-vsix: no VS Code target for the bundle's platform" >&2; exit 1 ;;
esac
rm -f flowdrop-lsp.vsix
npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license \
  --no-rewrite-relative-links --no-update-package-json --target "$TARGET" -o flowdrop-lsp.vsix
ls -l flowdrop-lsp.vsix
