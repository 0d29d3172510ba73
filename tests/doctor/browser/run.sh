#!/usr/bin/env bash
# FlowDrop's editor calling `flowdrop-lsp doctor` from a page of another origin, in a real
# browser: headless Debian chromium driven by playwright-core (run.mjs holds the steps).
#
#   tests/doctor/browser/run.sh [--server PATH] [--fake]
#
#   --server PATH  the flowdrop-lsp executable (default: <repo>/.venv/bin/flowdrop-lsp)
#   --fake         the Doctor with the tests' stand-in service (tests/support/doctor_front.py) instead
#                  of the core's: the HTTP front and the browser alone
#
# Needs tests/doctor/browser/install-deps.sh to have run. Exit 0 = every assertion held.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
SERVER="$REPO/.venv/bin/flowdrop-lsp"
FAKE=()

while [ $# -gt 0 ]; do
  case "$1" in
    --server) SERVER="${2:?--server needs a path}"; shift 2 ;;
    --server=*) SERVER="${1#--server=}"; shift ;;
    --fake) FAKE=(--fake); shift ;;
    -h|--help) sed -n 2,12p "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

die() { echo "e2e-doctor: FAIL: $*" >&2; exit 1; }
[ -d "$HERE/node_modules/playwright-core" ] || die "playwright-core missing: run tests/doctor/browser/install-deps.sh first"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || die "${CHROMIUM:-/usr/bin/chromium} missing: run tests/doctor/browser/install-deps.sh first"
[ -x "$SERVER" ] || die "$SERVER is not executable (make .venv/.installed, or pass --server PATH)"

exec node "$HERE/run.mjs" --repo "$REPO" --server "$SERVER" "${FAKE[@]}"
