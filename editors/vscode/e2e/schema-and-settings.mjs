// End-to-end check of the workflow schema in VS Code (started by e2e/run.sh after test.mjs,
// against the same code-server):
//   - with `json.validate.enable` on, a structure problem of a *.flowdrop.json file is reported
//     once, by VS Code's JSON support (the schema contributed through `jsonValidation`), and the
//     server's FD-SCHEMA for it is dropped; the server's other findings (R2) still show;
//   - completion of keys comes from the schema;
//   - with `json.validate.enable` off, the server's FD-SCHEMA is back, and VS Code's is gone;
//   - a broken `flowdrop.server.path`: the error's "Open Settings" button opens the Settings
//     editor on that setting, with an input box to edit it in place;
//   - the setting cleared and a workspace .venv/bin/flowdrop-lsp created (a script running
//     VENV_SERVER): the extension starts that one (run.sh checks the output channel) and the
//     server's findings are back.
// Environment: CS_URL, WORKSPACE, ARTIFACTS, CHROMIUM, STEP_TIMEOUT_MS (as for test.mjs).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { STEP, Failure, fail, waitFor } from './wait.mjs';

const URL_BASE = process.env.CS_URL;
const WORKSPACE = process.env.WORKSPACE;
const ARTIFACTS = process.env.ARTIFACTS;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FILE = 'broken.flowdrop.json';
// Node "a" twice (R2, from the server) and a label that is a number (the schema's problem).
const DOCUMENT = `{
  "nodes": [
    { "id": "a", "type": "llm", "data": { "label": 42 } },
    { "id": "a", "type": "llm", "data": { "label": "Second" } }
  ],
  "edges": []
}
`;

if (!URL_BASE || !WORKSPACE || !ARTIFACTS) {
  console.error('schema-and-settings.mjs: CS_URL, WORKSPACE and ARTIFACTS must be set (use e2e/run.sh)');
  process.exit(2);
}
const t0 = Date.now();
const log = (msg) => console.log(`[schema +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

let browser;
let page;

const problemRows = () =>
  page.locator('.markers-panel .monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') || r.textContent || ''));

/** Problems of the file: the JSON schema's type error (VS Code's wording) and FD-SCHEMA's. */
async function problems() {
  const rows = await problemRows();
  return {
    rows,
    server: rows.filter((r) => /duplicate node id/.test(r)),
    vscodeSchema: rows.filter((r) => /Incorrect type\. Expected "string"/.test(r)),
    fdSchema: rows.filter((r) => /is not of type 'string'/.test(r)),
  };
}

function writeSettings(values) {
  const file = path.join(WORKSPACE, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(values, null, 2));
}

async function main() {
  fs.writeFileSync(path.join(WORKSPACE, FILE), DOCUMENT);
  // Also clears what test.mjs left (a broken flowdrop.server.path): the server restarts.
  writeSettings({ 'json.validate.enable': true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    timeout: STEP,
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(STEP);
  await page.goto(`${URL_BASE}/?folder=${encodeURIComponent(WORKSPACE)}`, { timeout: STEP });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: STEP });

  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(FILE);
  await waitFor(`"${FILE}" in Quick Open`, async () => (await page.locator('.quick-input-list .monaco-list-row', { hasText: FILE }).count()) > 0);
  await page.keyboard.press('Enter');
  await waitFor(`editor tab "${FILE}"`, async () => (await page.locator('.tabs-container .tab.active', { hasText: FILE }).count()) > 0);
  log(`opened ${FILE}`);
  if (!(await page.locator('.markers-panel').first().isVisible().catch(() => false))) await page.keyboard.press('Control+Shift+M');

  // 1. json.validate.enable on: the schema problem once (VS Code's), the server's R2 too.
  const on = await waitFor('R2 from the server and the schema problem from VS Code', async () => {
    const p = await problems();
    return p.server.length > 0 && p.vscodeSchema.length > 0 ? p : null;
  });
  await page.waitForTimeout(2000); // any FD-SCHEMA would have arrived with R2; give it time anyway
  const settled = await problems();
  for (const r of settled.rows) log(`   ${r}`);
  if (settled.fdSchema.length) fail(`FD-SCHEMA shown although VS Code validates the file: ${settled.fdSchema.join('; ')}`);
  if (settled.vscodeSchema.length !== 1) fail(`expected the schema problem once, got ${JSON.stringify(settled.vscodeSchema)}`);
  log(`OK json.validate.enable on: the label's type problem once (VS Code's JSON), R2 from the server (${on.server.length})`);
  await page.screenshot({ path: path.join(ARTIFACTS, '07-schema-vscode-validates.png') });

  // 2. Completion of keys from the contributed schema: inside the second node's "data" object.
  const lines = DOCUMENT.split('\n');
  const line = lines.findIndex((l) => l.includes('"Second"'));
  const col = lines[line].indexOf('"data": {') + '"data": {'.length + 1;
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+G');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line + 1}:${col}`);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await page.keyboard.press('Control+Space');
  const suggestions = await waitFor('key completions from the schema', async () => {
    const t = await page.locator('.suggest-widget .monaco-list-row').allTextContents();
    return t.some((s) => s.includes('config')) ? t : null;
  });
  log(`OK completion in "data": ${suggestions.map((s) => JSON.stringify(s.trim())).join(', ')}`);
  await page.screenshot({ path: path.join(ARTIFACTS, '07-schema-completion.png') });
  await page.keyboard.press('Escape');

  // 3. json.validate.enable off: the server's FD-SCHEMA is back, VS Code's problem gone.
  writeSettings({ 'json.validate.enable': false });
  await waitFor("the server's FD-SCHEMA back and VS Code's schema problem gone", async () => {
    const p = await problems();
    return p.fdSchema.length === 1 && p.vscodeSchema.length === 0 && p.server.length > 0 ? p : null;
  });
  log('OK json.validate.enable off: the type problem from the server (FD-SCHEMA), once');
  await page.screenshot({ path: path.join(ARTIFACTS, '07-schema-server-validates.png') });

  // 4. "Open Settings" on the error about a broken flowdrop.server.path: the setting, editable.
  writeSettings({ 'flowdrop.server.path': '${workspaceFolder}/missing/flowdrop-lsp' });
  const toast = await waitFor('an error notification naming flowdrop.server.path', async () => {
    const items = page.locator('.notifications-toasts .notification-list-item', { hasText: 'flowdrop.server.path' });
    return (await items.count()) > 0 ? items.first() : null;
  });
  const text = (await toast.textContent()) || '';
  if (!text.includes(path.join(WORKSPACE, 'missing', 'flowdrop-lsp'))) fail(`the error does not show the expanded path: ${text}`);
  await toast.hover();
  await toast.locator('.monaco-button', { hasText: 'Open Settings' }).first().click();
  const box = page.locator('.settings-editor .setting-item-contents', { hasText: 'Server: Path' }).locator('input');
  await box.first().waitFor({ state: 'visible', timeout: STEP });
  log('OK "Open Settings" shows flowdrop.server.path with an input box (editable in place)');
  await page.screenshot({ path: path.join(ARTIFACTS, '08-open-settings.png') });

  // 5. The workspace's own server: .venv/bin/flowdrop-lsp, used once the setting is cleared.
  if (process.env.VENV_SERVER) {
    const venvBin = path.join(WORKSPACE, '.venv', 'bin');
    fs.mkdirSync(venvBin, { recursive: true });
    const script = path.join(venvBin, 'flowdrop-lsp');
    fs.writeFileSync(script, `#!/bin/sh\nexec '${process.env.VENV_SERVER.replace(/'/g, `'\\''`)}' "$@"\n`, { mode: 0o755 });
    writeSettings({});
    await waitFor("the server's R2 again, from the workspace's .venv server", async () => (await problems()).server.length > 0);
    log('OK with the setting cleared, a workspace .venv/bin/flowdrop-lsp answers');
  }
}

let code = 0;
try {
  await main();
  log('PASS: schema and settings scenario');
} catch (err) {
  code = 1;
  console.error(`[schema] FAIL: ${err instanceof Failure ? err.message : err && err.stack ? err.stack : err}`);
  if (page) await page.screenshot({ path: path.join(ARTIFACTS, 'failure-schema-and-settings.png') }).catch(() => {});
} finally {
  if (browser) await browser.close().catch(() => {});
}
process.exit(code);
