#!/usr/bin/env bash
# Installs vscode-json-language-server (npm vscode-langservers-extracted, pinned) into
# bench/.cache/json-server (git-ignored). Idempotent: does nothing when already there.
# Prints the path of the binary (run it as: <path> --stdio).
set -euo pipefail
VERSION="4.10.0"
here="$(cd "$(dirname "$0")" && pwd)"
prefix="$here/.cache/json-server"
bin="$prefix/node_modules/.bin/vscode-json-language-server"
pkg="$prefix/node_modules/vscode-langservers-extracted/package.json"

installed=""
if [[ -f "$pkg" ]]; then
  installed="$(node -p "require(process.argv[1]).version" "$pkg" 2>/dev/null || true)"
fi
if [[ "$installed" != "$VERSION" || ! -x "$bin" ]]; then
  command -v npm >/dev/null || { echo "install-json-server.sh: npm not found" >&2; exit 1; }
  mkdir -p "$prefix"
  [[ -f "$prefix/package.json" ]] || echo '{"name": "flowdrop-bench-json-server", "private": true}' > "$prefix/package.json"
  npm install --prefix "$prefix" --no-audit --no-fund --save-exact \
    "vscode-langservers-extracted@$VERSION" >&2
fi
[[ -x "$bin" ]] || { echo "install-json-server.sh: $bin missing after install" >&2; exit 1; }
echo "$bin"
