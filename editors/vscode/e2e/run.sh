#!/usr/bin/env bash
# End-to-end test of the FlowDrop VS Code extension in real VS Code 1.100.3
# (code-server) driven by headless chromium (playwright-core).
#
#   editors/vscode/e2e/run.sh [--server PATH] [--mode all|configured|bundled] [--docs-shot]
#
#   --server PATH  flowdrop-lsp executable (default: <repo>/.venv/bin/flowdrop-lsp)
#   --mode         which server the extension starts (default: all = both runs, one after the other)
#                  configured: `flowdrop.server.path` = ${workspaceFolder}/tools/flowdrop-lsp, a
#                    script in the workspace that runs --server (proves the expansion); then
#                    python-extension.mjs: the setting cleared, the bundled server runs on the
#                    interpreter a stand-in ms-python.python extension names;
#                  bundled: no setting, no flowdrop-lsp on code-server's PATH (directories that
#                    hold one are taken out of it), no .venv in the workspace: the extension must
#                    start the server it bundles, with python3 from PATH; then schema-and-settings.mjs
#                    (the workflow schema in VS Code's JSON support, FD-SCHEMA not twice; the
#                    error's "Open Settings" shows the setting editable; a workspace
#                    .venv/bin/flowdrop-lsp is used once the setting is cleared)
#   --docs-shot    also (re)write editors/vscode/docs/quickfix.png (in the configured run)
#
# The workspace: examples/research-agent.flowdrop.json, a Drupal config workflow
# (config/sync/flowdrop_workflow.flowdrop_workflow.research.yml from tests/editors/fixtures),
# that workflow under a name no glob selects (notes/research-copy.yml) and the JSON one as an API
# export (exported.json): workflows by content, as in `flowdrop-lsp check`; the real site's
# weather workflow (tests/corpus/atelier-cms) with a misspelt Twig filter `frist` planted (the
# expression checks: expressions.mjs); and unrelated package.json and docker-compose.yml.
# Needs editors/vscode/e2e/install-deps.sh to have run. Screenshots go to
# <repo>/artifacts/vscode/. Exit 0 = all assertions held.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
EXT="$(cd "$HERE/.." && pwd)"
REPO="$(cd "$EXT/../.." && pwd)"
SERVER="$REPO/.venv/bin/flowdrop-lsp"
DOCS_SHOT=""
MODE=all
TOTAL_TIMEOUT="${E2E_TOTAL_TIMEOUT:-600}"

while [ $# -gt 0 ]; do
  case "$1" in
    --server) SERVER="${2:?--server needs a path}"; shift 2 ;;
    --server=*) SERVER="${1#--server=}"; shift ;;
    --mode) MODE="${2:?--mode needs all, configured or bundled}"; shift 2 ;;
    --mode=*) MODE="${1#--mode=}"; shift ;;
    --docs-shot) DOCS_SHOT="$EXT/docs/quickfix.png"; shift ;;
    -h|--help) sed -n 2,26p "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

die() { echo "e2e-vscode: FAIL${MODE:+ ($MODE)}: $*" >&2; exit 1; }

case "$MODE" in
  configured|bundled) ;;
  all)
    # Both runs; the vsix is built (if stale) by the first.
    shot=(); [ -n "$DOCS_SHOT" ] && shot=(--docs-shot)
    bash "$0" --server "$SERVER" --mode configured "${shot[@]}"
    bash "$0" --server "$SERVER" --mode bundled
    echo "e2e-vscode: PASS (both runs: configured server path, bundled server)"
    exit 0 ;;
  *) echo "run.sh: --mode must be all, configured or bundled, not $MODE" >&2; exit 2 ;;
esac

CODE_SERVER="$HERE/node_modules/.bin/code-server"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$CODE_SERVER" ] && [ -d "$HERE/node_modules/playwright-core" ] \
  || die "code-server/playwright-core missing: run editors/vscode/e2e/install-deps.sh first"
[ -x "$CHROMIUM" ] || die "$CHROMIUM missing: run editors/vscode/e2e/install-deps.sh first"

case "$SERVER" in /*) ;; *) SERVER="$(pwd)/$SERVER" ;; esac
[ -x "$SERVER" ] || die "language server $SERVER is not executable (install it: make test / pip install -e ., or pass --server PATH)"

# Build the extension if the vsix is missing or older than its sources.
VSIX="$EXT/flowdrop-lsp.vsix"
if [ ! -f "$VSIX" ] || [ -n "$(find "$EXT/src" "$EXT/bundled/tool" "$EXT/scripts" "$EXT/package.json" "$EXT/package-lock.json" "$EXT/README.md" "$REPO/flowdrop_lsp" "$REPO/pyproject.toml" -type f -newer "$VSIX" -not -path '*/__pycache__/*' -print -quit)" ]; then
  echo "e2e-vscode: building $VSIX"
  bash "$EXT/scripts/build-vsix.sh" >/dev/null || die "building the vsix failed (run editors/vscode/scripts/build-vsix.sh)"
fi

ART="$REPO/artifacts/vscode/$MODE"
mkdir -p "$ART"
rm -f "$ART"/*.png "$ART"/*.log

TMP="$(mktemp -d /tmp/flowdrop-vscode-e2e.XXXXXX)"
CS_PID=""
# Every FlowDrop log (output channel, LSP trace) of every extension host, oldest host first: the
# paths carry the session's timestamp and the host's number (exthost1, exthost2, ...), so a
# version sort puts them in the order they were started. `find` alone lists them in the file
# system's order (ext4 hashes names), which put a later host's log first on the CI machine.
flowdrop_logs() {
  find "$TMP/user/logs" -name 'FlowDrop*.log' -print0 2>/dev/null | sort -zV | xargs -0r cat
}
cleanup() {
  local rc=$?
  if [ -n "$CS_PID" ]; then
    # code-server runs in its own session/process group (setsid): end all of it,
    # including extension hosts and the language server.
    kill -TERM -- "-$CS_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 -- "-$CS_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$CS_PID" 2>/dev/null || true
  fi
  # Keep the logs next to the screenshots.
  cp "$TMP/code-server.log" "$ART/code-server.log" 2>/dev/null || true
  flowdrop_logs >"$ART/flowdrop-output.log" 2>/dev/null || true
  find "$TMP/user/logs" -name 'FlowDrop*.log' 2>/dev/null | sort -V >"$ART/flowdrop-logs.txt" || true
  if [ "$rc" -ne 0 ]; then
    echo "e2e-vscode: the FlowDrop logs, in the order flowdrop-output.log joins them:" >&2
    sed 's/^/  log| /' "$ART/flowdrop-logs.txt" >&2 || true
    echo "e2e-vscode: logs kept in $ART (code-server.log, flowdrop-output.log)" >&2
    tail -n 30 "$ART/flowdrop-output.log" 2>/dev/null | sed 's/^/  FlowDrop| /' >&2 || true
  fi
  rm -rf "$TMP"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

WS="$TMP/workspace"
mkdir -p "$WS" "$TMP/user/User" "$TMP/extensions" "$TMP/xdg-config" "$TMP/xdg-data"
cp "$REPO/examples/research-agent.flowdrop.json" "$WS/"
cp "$REPO/examples/research-agent.flowdrop.json" "$WS/exported.json"
# A Drupal site's config export: a FlowDrop workflow as YAML (language `yaml`).
YAML_WORKFLOW="flowdrop_workflow.flowdrop_workflow.research.yml"
mkdir -p "$WS/config/sync"
cp "$REPO/tests/editors/fixtures/config/sync/$YAML_WORKFLOW" "$WS/config/sync/"
# Another workflow of that site, never opened: under the scope `workspace` its problems are
# listed all the same (step 6c of test.mjs).
sed 's/^id: research$/id: research_closed/' "$REPO/tests/editors/fixtures/config/sync/$YAML_WORKFLOW" \
  >"$WS/config/sync/flowdrop_workflow.flowdrop_workflow.research_closed.yml"
# The real site's weather workflow with a misspelt Twig filter planted in its data mapper's
# template (step 6d of test.mjs: expressions.mjs).
EXPRESSION_WORKFLOW="flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
EXPRESSION_ORIGINAL="$REPO/tests/corpus/atelier-cms/config/sync/$EXPRESSION_WORKFLOW"
[ "$(grep -cF "(q|split(',')|first|trim)" "$EXPRESSION_ORIGINAL")" = 1 ] \
  || die "$EXPRESSION_ORIGINAL does not hold (q|split(',')|first|trim) once"
sed "s/(q|split(',')|first|trim)/(q|split(',')|frist|trim)/" "$EXPRESSION_ORIGINAL" \
  >"$WS/config/sync/$EXPRESSION_WORKFLOW"
# The real site's image agent with its reasoning node's `maxTokens: 8192` misspelt, with the
# node types it uses, as a site of its own (its own config/sync: the research site above keeps
# no node-type registry) (step 6e of test.mjs: remedies.mjs).
REMEDY_WORKFLOW="flowdrop_workflow.flowdrop_workflow.aincient_image_agent.yml"
REMEDY_SITE="$REPO/tests/corpus/atelier-cms/config/sync"
REMEDY_ORIGINAL="$REMEDY_SITE/$REMEDY_WORKFLOW"
[ "$(grep -cx '        maxTokens: 8192' "$REMEDY_ORIGINAL")" = 1 ] \
  || die "$REMEDY_ORIGINAL does not hold maxTokens: 8192 once"
mkdir -p "$WS/atelier/config/sync"
sed 's/^        maxTokens: 8192$/        maxTokes: 8192/' "$REMEDY_ORIGINAL" \
  >"$WS/atelier/config/sync/$REMEDY_WORKFLOW"
for type in $(sed -n 's/^ *node_type_id: //p' "$REMEDY_ORIGINAL" | sort -u); do
  cp "$REMEDY_SITE/flowdrop_node_type.flowdrop_node_type.$type.yml" "$WS/atelier/config/sync/" \
    || die "the site has no node type $type"
done
# The same workflow under a name no glob selects (language yaml too): a workflow by content.
mkdir -p "$WS/notes"
cp "$REPO/tests/editors/fixtures/config/sync/$YAML_WORKFLOW" "$WS/notes/research-copy.yml"
cat >"$WS/docker-compose.yml" <<'YAML'
# Unrelated YAML: the FlowDrop extension must leave it alone.
services:
  web:
    image: nginx:1.27
    ports:
      - '8080:80'
YAML
cat >"$WS/package.json" <<'JSON'
{
  "name": "unrelated-package",
  "version": "1.0.0",
  "description": "Not a FlowDrop workflow: the FlowDrop extension must leave it alone.",
  "scripts": { "test": "echo ok" }
}
JSON
# The configured run: a server script inside the workspace, named with ${workspaceFolder}.
SERVER_SETTING=""
if [ "$MODE" = configured ]; then
  mkdir -p "$WS/tools"
  printf '#!/bin/sh\nexec %q "$@"\n' "$SERVER" >"$WS/tools/flowdrop-lsp"
  chmod +x "$WS/tools/flowdrop-lsp"
  SERVER_SETTING='${workspaceFolder}/tools/flowdrop-lsp'
fi
python3 - "$TMP/user/User/settings.json" "$SERVER_SETTING" <<'PY'
import json, sys
settings = {
    "json.validate.enable": False,
    "flowdrop.trace.server": "verbose",
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.welcomePage.walkthroughs.openOnInstall": False,
    "security.workspace.trust.enabled": False,
    "extensions.autoUpdate": False,
    "extensions.autoCheckUpdates": False,
    "update.mode": "none",
    "telemetry.telemetryLevel": "off",
    "editor.minimap.enabled": False,
    "files.autoSave": "off",
    "window.restoreWindows": "none",
    # The steps count the problems of the files they open: closed files are published only in
    # step 6c, which sets the scope `workspace` (the default) for the workspace.
    "flowdrop.diagnostics.scope": "open",
}
if sys.argv[2]:
    settings["flowdrop.server.path"] = sys.argv[2]
json.dump(settings, open(sys.argv[1], "w"), indent=2)
PY

export XDG_CONFIG_HOME="$TMP/xdg-config" XDG_DATA_HOME="$TMP/xdg-data"
# The bundled run: nothing the extension could start but its own bundle.
CS_PATH="$PATH"
CS_SHELL="${SHELL:-/bin/bash}"
if [ "$MODE" = bundled ]; then
  CS_PATH=""
  IFS=: read -r -a path_dirs <<<"$PATH"
  for d in "${path_dirs[@]}"; do
    [ -n "$d" ] && [ ! -x "$d/flowdrop-lsp" ] && CS_PATH="${CS_PATH:+$CS_PATH:}$d"
  done
  if PATH="$CS_PATH" command -v flowdrop-lsp >/dev/null; then die "flowdrop-lsp is still on the stripped PATH"; fi
  [ ! -e "$WS/.venv" ] || die "the workspace has a .venv"
  PATH="$CS_PATH" command -v python3 >/dev/null || die "no python3 on PATH for the bundled server"
  # code-server's extension host does not keep code-server's PATH: it takes the environment of
  # a login shell ("$SHELL" -i -l -c ...), as VS Code does. This "login shell" has the stripped
  # PATH and reads no profile.
  {
    echo '#!/bin/bash'
    echo 'args=(); for a in "$@"; do case "$a" in -l|-i|-il|-li|--login) ;; *) args+=("$a") ;; esac; done'
    echo "PATH=$(printf %q "$CS_PATH") exec /bin/bash --noprofile --norc \"\${args[@]}\""
  } >"$TMP/login-shell"
  chmod +x "$TMP/login-shell"
  CS_SHELL="$TMP/login-shell"
  echo "e2e-vscode: bundled run: no flowdrop-lsp on PATH ($(PATH="$CS_PATH" python3 --version) is python3), no server setting, no workspace .venv"
fi
CS_ARGS=(--user-data-dir "$TMP/user" --extensions-dir "$TMP/extensions")

echo "e2e-vscode: installing $(basename "$VSIX") into code-server $("$CODE_SERVER" --version 2>/dev/null | tail -n 1 | awk '{print $1}')"
timeout 120 "$CODE_SERVER" "${CS_ARGS[@]}" --install-extension "$VSIX" >"$TMP/install.log" 2>&1 \
  || { cat "$TMP/install.log" >&2; die "code-server --install-extension failed"; }

if [ "$MODE" = configured ]; then
  # A stand-in for the Python extension (ms-python.python), answering with the server's Python:
  # python-extension.mjs checks that the bundled server then runs on that interpreter.
  PY_INTERPRETER="$(dirname "$SERVER")/python"
  [ -x "$PY_INTERPRETER" ] || PY_INTERPRETER="$(command -v python3)"
  cp -r "$HERE/fake-python-extension" "$TMP/fake-python-extension"
  printf '{"path": "%s"}\n' "$PY_INTERPRETER" >"$TMP/fake-python-extension/interpreter.json"
  (cd "$TMP/fake-python-extension" && "$EXT/node_modules/.bin/vsce" package --no-dependencies \
    --allow-missing-repository --skip-license -o "$TMP/fake-python.vsix" >/dev/null) \
    || die "packaging the stand-in Python extension failed"
  timeout 120 "$CODE_SERVER" "${CS_ARGS[@]}" --install-extension "$TMP/fake-python.vsix" >>"$TMP/install.log" 2>&1 \
    || { cat "$TMP/install.log" >&2; die "installing the stand-in Python extension failed"; }
fi

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
echo "e2e-vscode: mode=$MODE server=${SERVER_SETTING:-bundled} port=$PORT workspace=$WS"
env -u VIRTUAL_ENV PATH="$CS_PATH" SHELL="$CS_SHELL" setsid "$CODE_SERVER" "${CS_ARGS[@]}" \
  --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override "$WS" \
  >"$TMP/code-server.log" 2>&1 </dev/null &
CS_PID=$!

# The YAML check of the quick-fixed file uses the server's Python (PyYAML is a dependency).
YAML_PYTHON="$(dirname "$SERVER")/python"
{ [ -x "$YAML_PYTHON" ] && "$YAML_PYTHON" -c 'import yaml' 2>/dev/null; } || YAML_PYTHON=python3
"$YAML_PYTHON" -c 'import yaml' 2>/dev/null || die "no Python with PyYAML ($YAML_PYTHON) for the YAML check"

cd "$HERE"
EXPRESSION_WORKFLOW="config/sync/$EXPRESSION_WORKFLOW" EXPRESSION_ORIGINAL="$EXPRESSION_ORIGINAL" \
  REMEDY_WORKFLOW="atelier/config/sync/$REMEDY_WORKFLOW" REMEDY_ORIGINAL="$REMEDY_ORIGINAL" \
  YAML_PYTHON="$YAML_PYTHON" YAML_WORKFLOW="config/sync/$YAML_WORKFLOW" CHECK_BAD_PATH=1 CS_URL="http://127.0.0.1:$PORT" WORKSPACE="$WS" ARTIFACTS="$ART" DOCS_SHOT="$DOCS_SHOT" CHROMIUM="$CHROMIUM" \
  timeout --kill-after=10 "$TOTAL_TIMEOUT" node "$HERE/test.mjs" \
  || die "VS Code end-to-end assertions failed (see above; screenshots in $ART)"
if [ "$MODE" = configured ]; then
  CS_URL="http://127.0.0.1:$PORT" WORKSPACE="$WS" ARTIFACTS="$ART" CHROMIUM="$CHROMIUM" LOGS="$TMP/user/logs" \
    INTERPRETER="$PY_INTERPRETER" timeout --kill-after=10 "$TOTAL_TIMEOUT" node "$HERE/python-extension.mjs" \
    || die "the Python extension scenario failed (see above; screenshots in $ART)"
fi
if [ "$MODE" = bundled ]; then
  # The workflow schema in VS Code's JSON support (package.json jsonValidation, the file in the
  # bundle): structure problems once, completion of keys; then "Open Settings" on an error.
  VENV_SERVER="$SERVER" CS_URL="http://127.0.0.1:$PORT" WORKSPACE="$WS" ARTIFACTS="$ART" CHROMIUM="$CHROMIUM" \
    timeout --kill-after=10 "$TOTAL_TIMEOUT" node "$HERE/schema-and-settings.mjs" \
    || die "the schema scenario failed (see above; screenshots in $ART)"
fi

# The LSP trace (flowdrop.trace.server=verbose) in the FlowDrop output channel
# shows what the extension sent and what the server answered: the workflows, and for the
# unrelated package.json (sent: a workflow may have any name) no diagnostics at all.
TRACE=""
for _ in $(seq 1 20); do
  TRACE="$(flowdrop_logs || true)"
  grep -q "research-agent.flowdrop.json" <<<"$TRACE" && break
  sleep 0.5
done
grep -q "textDocument/didOpen" <<<"$TRACE" && grep -q "research-agent.flowdrop.json" <<<"$TRACE" \
  || die "the FlowDrop output channel shows no didOpen of the workflow (is flowdrop.trace.server honoured?)"
"$YAML_PYTHON" -c '
import re, sys
trace = open(sys.argv[1], encoding="utf-8").read()
published = [m.group(1) for m in re.finditer(r"publishDiagnostics.{0,400}?\"uri\": \"file://[^\"]*/workspace/([^\"]+)\"", trace, re.S)]
bad = [uri for uri in published if uri == "package.json"]
missing = [f for f in ("exported.json", "notes/research-copy.yml") if f not in published]
sys.exit(f"diagnostics published for {bad}" if bad else f"no diagnostics published for {missing}" if missing else 0)
' <(printf '%s' "$TRACE") || die "the server published for package.json, or not for the workflows by content (LSP trace)"
# The Drupal workflow went to the server as a `yaml` document; docker-compose.yml never did.
printf '%s' "$TRACE" >"$TMP/trace.log"
"$YAML_PYTHON" -c '
import re, sys
trace = open(sys.argv[1], encoding="utf-8").read()
uri = r"\"uri\": \"file://[^\"]*/" + re.escape(sys.argv[2]) + r"\""
sys.exit(0 if re.search(uri + r",\s*\"languageId\": \"yaml\"", trace) else 1)
' "$TMP/trace.log" "$YAML_WORKFLOW" \
  || die "the FlowDrop output channel shows no didOpen of $YAML_WORKFLOW with languageId yaml"
if grep -q "workspace/docker-compose.yml" <<<"$TRACE"; then
  die "the extension sent docker-compose.yml (language dockercompose) to the server"
fi
echo "e2e-vscode: OK the server published for exported.json and notes/research-copy.yml, never for package.json (LSP trace)"
echo "e2e-vscode: OK $YAML_WORKFLOW went to the server with languageId yaml, docker-compose.yml never (LSP trace)"
# Which server answered: the FlowDrop output channel says why it chose it.
if [ "$MODE" = configured ]; then
  grep -qF "Using the server from \"flowdrop.server.path\": $WS/tools/flowdrop-lsp" <<<"$TRACE" \
    || die "the FlowDrop output channel does not show the \${workspaceFolder} server path expanded to $WS/tools/flowdrop-lsp"
  echo "e2e-vscode: OK \${workspaceFolder}/tools/flowdrop-lsp expanded and started"
else
  # The first server started is the bundled one; the only other one, at the end, is the
  # workspace's .venv server of schema-and-settings.mjs.
  grep -o "Using the .*" <<<"$TRACE" | head -n 1 | grep -q "^Using the bundled server with python3 on PATH" \
    || die "the FlowDrop output channel does not show the bundled server being started first"
  grep -qF "Using the workspace's server: $WS/.venv/bin/flowdrop-lsp" <<<"$TRACE" \
    || die "the FlowDrop output channel does not show the workspace's .venv/bin/flowdrop-lsp being started"
  grep -q "Using the server from" <<<"$TRACE" && die "the bundled run started a flowdrop.server.path server"
  echo "e2e-vscode: OK the workspace's .venv/bin/flowdrop-lsp started once the setting was cleared"
  echo "e2e-vscode: OK the bundled server answered: $(grep -o 'Using the bundled server with .*' <<<"$TRACE" | head -n 1)"
fi
echo "e2e-vscode: PASS ($MODE; screenshots in $ART)"
