#!/usr/bin/env bash
# Install what tests/doctor/browser/run.sh needs (Debian 12):
#   - Debian's chromium (apt-get, as root; skipped when /usr/bin/chromium is there);
#   - playwright-core, into tests/doctor/browser/node_modules (npm ci from package-lock.json;
#     playwright-core drives the chromium above and downloads no browser of its own).
# Idempotent: a second run only checks.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { echo "e2e-doctor deps: $*"; }
die() { echo "e2e-doctor deps: ERROR: $*" >&2; exit 1; }

command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are required"

if [ -x /usr/bin/chromium ]; then
  log "chromium present ($(/usr/bin/chromium --version 2>/dev/null || echo '?'))"
else
  [ "$(id -u)" = 0 ] || die "/usr/bin/chromium is missing: run this as root once (apt-get install chromium)"
  log "apt-get install chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends chromium || {
    apt-get update -q && apt-get install -y -q --no-install-recommends chromium
  }
  [ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after apt-get install chromium"
fi

cd "$HERE"
if [ -d node_modules/playwright-core ] && [ -f node_modules/.package-lock.json ] &&
  [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
  log "playwright-core $(node -p 'require("./node_modules/playwright-core/package.json").version') present"
else
  log "npm ci (playwright-core)"
  npm ci --no-audit --no-fund >/dev/null || die "npm ci of playwright-core failed"
fi
