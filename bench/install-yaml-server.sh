#!/usr/bin/env bash
# Installs yaml-language-server (npm yaml-language-server, pinned) into
# bench/.cache/yaml-server (git-ignored). Idempotent: does nothing when already there.
# Prints the path of the package directory (bench/yaml_nodelay.js <dir> --stdio starts it
# without its 200 ms debounce; <dir>/bin/yaml-language-server --stdio starts it as shipped).
set -euo pipefail
VERSION="1.25.0"
here="$(cd "$(dirname "$0")" && pwd)"
prefix="$here/.cache/yaml-server"
pkgdir="$prefix/node_modules/yaml-language-server"
pkg="$pkgdir/package.json"
bin="$prefix/node_modules/.bin/yaml-language-server"

installed=""
if [[ -f "$pkg" ]]; then
  installed="$(node -p "require(process.argv[1]).version" "$pkg" 2>/dev/null || true)"
fi
if [[ "$installed" != "$VERSION" || ! -x "$bin" ]]; then
  command -v npm >/dev/null || { echo "install-yaml-server.sh: npm not found" >&2; exit 1; }
  mkdir -p "$prefix"
  [[ -f "$prefix/package.json" ]] || echo '{"name": "flowdrop-bench-yaml-server", "private": true}' > "$prefix/package.json"
  npm install --prefix "$prefix" --no-audit --no-fund --save-exact \
    "yaml-language-server@$VERSION" >&2
fi
[[ -x "$bin" ]] || { echo "install-yaml-server.sh: $bin missing after install" >&2; exit 1; }
echo "$pkgdir"
