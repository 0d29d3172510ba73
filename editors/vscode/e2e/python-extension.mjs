// End-to-end check that the bundled server runs on the Python extension's selected interpreter
// (started by e2e/run.sh after test.mjs, in the configured run, with e2e/fake-python-extension
// installed as ms-python.python answering INTERPRETER). `flowdrop.server.path` is cleared in
// the workspace settings; the FlowDrop output channel must then show the bundled server
// started with INTERPRETER, not with python3 from PATH.
// Environment: CS_URL, WORKSPACE, ARTIFACTS, CHROMIUM, LOGS (code-server's logs folder),
// INTERPRETER, STEP_TIMEOUT_MS.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const { CS_URL, WORKSPACE, ARTIFACTS, LOGS, INTERPRETER } = process.env;
const STEP = Number(process.env.STEP_TIMEOUT_MS || 60000);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FILE = 'research-agent.flowdrop.json';
if (!CS_URL || !WORKSPACE || !ARTIFACTS || !LOGS || !INTERPRETER) {
  console.error('python-extension.mjs: CS_URL, WORKSPACE, ARTIFACTS, LOGS and INTERPRETER must be set (use e2e/run.sh)');
  process.exit(2);
}
const t0 = Date.now();
const log = (msg) => console.log(`[python-ext +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

async function waitFor(what, fn) {
  const end = Date.now() + STEP;
  for (;;) {
    const value = await fn().catch(() => null);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${STEP / 1000}s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The FlowDrop log files (output channel, LSP trace) of every extension host so far, by path. */
function flowdropLogs() {
  const found = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/^FlowDrop.*\.log$/.test(entry.name)) found.set(p, fs.readFileSync(p, 'utf8'));
    }
  };
  walk(LOGS);
  return found;
}

/** What each log gained since `sizes` (path -> length) was taken, one text per file. Files are
 * not joined: the directory walk's order is the file system's (ext4 hashes names), so a new
 * extension host's log may come before the old one's, and an offset into a joined text would
 * cut into it. */
function logsSince(sizes) {
  return [...flowdropLogs()].map(([p, text]) => text.slice(sizes.get(p) || 0));
}

let browser;
let page;
let code = 0;
try {
  const settings = path.join(WORKSPACE, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(settings, JSON.stringify({ 'flowdrop.server.path': '' }, null, 2));
  const sizes = new Map([...flowdropLogs()].map(([p, text]) => [p, text.length]));

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'], timeout: STEP });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(STEP);
  await page.goto(`${CS_URL}/?folder=${encodeURIComponent(WORKSPACE)}`, { timeout: STEP });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(FILE);
  await waitFor(`"${FILE}" in Quick Open`, async () => (await page.locator('.quick-input-list .monaco-list-row', { hasText: FILE }).count()) > 0);
  await page.keyboard.press('Enter');
  await waitFor(`editor tab "${FILE}"`, async () => (await page.locator('.tabs-container .tab.active', { hasText: FILE }).count()) > 0);
  log(`opened ${FILE} with flowdrop.server.path cleared`);

  const line = await waitFor("the bundled server started on the Python extension's interpreter", async () => {
    for (const text of logsSince(sizes)) {
      const used = /Using the bundled server with the Python extension's selected interpreter: (.*)/.exec(text);
      if (used && /FlowDrop language server started/.test(text.slice(used.index))) return used[0];
    }
    return null;
  });
  if (!line.includes(`(${INTERPRETER})`)) throw new Error(`not started with ${INTERPRETER}: ${line}`);
  log(`OK ${line}`);
  await page.screenshot({ path: path.join(ARTIFACTS, '09-python-extension-interpreter.png') });
  log('PASS: python extension scenario');
} catch (err) {
  code = 1;
  console.error(`[python-ext] FAIL: ${err && err.message ? err.message : err}`);
  for (const [p, text] of flowdropLogs()) console.error(`--- ${p}\n${text.split('\n').slice(-15).join('\n')}`);
  if (page) await page.screenshot({ path: path.join(ARTIFACTS, 'failure-python-extension.png') }).catch(() => {});
} finally {
  if (browser) await browser.close().catch(() => {});
}
process.exit(code);
