#!/usr/bin/env bash
# Install what editors/vscode/e2e/run.sh needs, on Debian 12 as root:
#   - Debian packages: chromium, ripgrep, python3 and the headers/toolchain that
#     code-server's native modules build with;
#   - code-server@4.100.3 (= VS Code 1.100.3, the last release on Node 20) and
#     playwright-core, into editors/vscode/e2e/node_modules (package-lock.json).
# Idempotent: a second run only checks (a few seconds).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { echo "e2e-deps: $*"; }
die() { echo "e2e-deps: ERROR: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get and code-server's native builds need it)"
command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are required (Node 20)"
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
[ "$NODE_MAJOR" = 20 ] || log "warning: code-server 4.100.3 wants Node 20, found $(node --version)"

# --- Debian packages --------------------------------------------------------
APT_PKGS=(build-essential pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep chromium)
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
else
  log "Debian packages present"
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after apt-get install chromium"

# --- code-server + playwright-core -----------------------------------------
cd "$HERE"
installed_ok() {
  [ -x node_modules/.bin/code-server ] &&
    [ -d node_modules/playwright-core ] &&
    [ -d node_modules/code-server/lib/vscode/node_modules ] &&
    [ -x node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg ] &&
    [ -f node_modules/.package-lock.json ] &&
    [ ! package-lock.json -nt node_modules/.package-lock.json ] &&
    [ ! package.json -nt node_modules/.package-lock.json ]
}

if installed_ok; then
  log "code-server $(node -p 'require("./node_modules/code-server/package.json").version') and playwright-core $(node -p 'require("./node_modules/playwright-core/package.json").version') present"
else
  # @vscode/ripgrep's postinstall downloads rg from the internet, which is not
  # reachable: pre-seed its cache with Debian's binary.
  RG_CACHE="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$RG_CACHE"
  tar czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C /usr/bin rg
  INSTALL_LOG="$(mktemp /tmp/flowdrop-e2e-npm-ci.XXXXXX.log)"
  log "npm ci (code-server@4.100.3 builds native modules: about a minute)"
  rm -rf node_modules
  # root needs unsafe_perm (older npm); a later step of code-server's
  # postinstall runs npx, which yes=false would cancel; the nested installs of
  # code-server's postinstall must be allowed to run their scripts too.
  npm_config_unsafe_perm=true npm_config_yes=true npm_config_dangerously_allow_all_scripts=true \
    npm ci --foreground-scripts --no-audit --no-fund >"$INSTALL_LOG" 2>&1 || {
      tail -n 60 "$INSTALL_LOG" >&2
      die "npm ci of code-server/playwright-core failed (full log: $INSTALL_LOG)"
    }
  installed_ok || { tail -n 60 "$INSTALL_LOG" >&2; die "code-server install incomplete (full log: $INSTALL_LOG)"; }
  rm -f "$INSTALL_LOG"
  log "installed code-server $(node -p 'require("./node_modules/code-server/package.json").version') and playwright-core $(node -p 'require("./node_modules/playwright-core/package.json").version')"
fi
