// FlowDrop's editor calling `flowdrop-lsp doctor` from a page of another origin, in headless
// chromium (run.sh starts this; `node run.mjs --repo DIR --server PATH [--fake]`).
//
// 1. Two page servers on 127.0.0.1, each on a port of its own: the editor's origin (allowed)
//    and a foreign one. The Doctor is started on the corpus site with `--port 0`,
//    `--allow-origin` the editor's origin and `--token-file`; its first line gives its URL.
// 2. In the editor's page, `fetch` as FlowDrop's editor does (POST, `Content-Type:
//    application/json`, `Authorization: Bearer`: the browser sends a preflight first): diagnose
//    on the JSON export of the site's weather workflow answers problems; remedy with the first
//    problem's first remedy answers operations.
// 3. The same fetch from the foreign page is refused by the browser (no CORS answer), and so is
//    the editor's without its token (401, readable: CORS headers on refusals too).
// 4. SIGTERM stops the Doctor with exit 0.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const STEP_MS = Number(process.env.STEP_TIMEOUT_MS || 120000);
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const REPO = option('--repo');
const SERVER = option('--server');
const FAKE = args.includes('--fake');
const SITE = join(REPO, 'tests/corpus/atelier-cms/config/sync');
const DRAFT = JSON.parse(
  readFileSync(join(REPO, 'tests/corpus/atelier-cms/json/aincient_weather.flowdrop.json'), 'utf8')
);

class Failure extends Error {}
const check = (ok, message) => {
  if (!ok) throw new Failure(message);
};
const log = (message) => console.log(`e2e-doctor: ${message}`);

/** A page server on 127.0.0.1 and a free port: one blank page. */
async function pageServer() {
  const server = createServer((_, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>FlowDrop editor stand-in</title><p>page</p>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/** The Doctor, and the URL of its first line. */
async function startDoctor(origin, tokenFile) {
  const doctorArgs = ['doctor', '--port', '0', '--allow-origin', origin, '--token-file', tokenFile, SITE];
  const child = FAKE
    ? spawn(join(dirname(SERVER), 'python'), ['-m', 'tests.support.doctor_launch', ...doctorArgs], { cwd: REPO })
    : spawn(SERVER, doctorArgs, { cwd: REPO });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  const next = async () => {
    const timer = new Promise((_, reject) =>
      setTimeout(() => reject(new Failure(`the Doctor printed nothing within ${STEP_MS / 1000}s; stderr:\n${stderr}`)), STEP_MS)
    );
    const exited = new Promise((_, reject) =>
      child.once('exit', (code) => reject(new Failure(`the Doctor exited (${code}) before its line; stderr:\n${stderr}`)))
    );
    const { value, done } = await Promise.race([iterator.next(), timer, exited]);
    check(!done, `the Doctor closed its stdout; stderr:\n${stderr}`);
    return value;
  };
  const first = await next();
  const match = /^flowdrop-lsp doctor listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(first);
  check(match && Number(match[2]) > 0, `unexpected first line: ${JSON.stringify(first)}`);
  const second = await next();
  return { child, url: match[1], second, stderr: () => stderr };
}

/** `fetch` in the page as FlowDrop's editor sends it; answers {status, body} or {error}. */
function fetchInPage(page, url, body, token) {
  return page.evaluate(
    async ({ url, body, token }) => {
      const headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
      if (token) headers.Authorization = `Bearer ${token}`;
      try {
        const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
        return { status: response.status, body: await response.json() };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, body, token }
  );
}

const scratch = mkdtempSync(join(tmpdir(), 'flowdrop-doctor-e2e-'));
const token = randomBytes(24).toString('hex');
const tokenFile = join(scratch, 'token');
writeFileSync(tokenFile, `${token}\n`);
const editor = await pageServer();
const foreign = await pageServer();
let doctor;
let browser;
let failed = false;
try {
  doctor = await startDoctor(editor.origin, tokenFile);
  log(`${FAKE ? 'fake service' : 'real service'}: ${doctor.url}; ${doctor.second}`);
  const base = `${doctor.url}/api/flowdrop/workflow/${encodeURIComponent(DRAFT.id)}`;

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  const page = await browser.newPage();
  await page.goto(editor.origin);

  // Diagnose from the allowed origin: through the preflight, the answer readable.
  const diagnosed = await fetchInPage(page, `${base}/diagnose`, DRAFT, token);
  check(!diagnosed.error, `diagnose from ${editor.origin} failed in the browser: ${diagnosed.error}`);
  check(diagnosed.status === 200 && diagnosed.body.success === true,
    `diagnose answered ${diagnosed.status}: ${JSON.stringify(diagnosed.body)}`);
  const problems = diagnosed.body.data.problems;
  check(Array.isArray(problems) && problems.length > 0,
    `diagnose answered no problem for the weather workflow: ${JSON.stringify(diagnosed.body)}`);
  log(`diagnose from ${editor.origin}: ${problems.length} problem(s), the first ${problems[0].code}: ${problems[0].message}`);

  // Remedy: the first problem's first remedy, its first choice picked as the editor does.
  const [problem] = problems;
  check(Array.isArray(problem.remedies) && problem.remedies.length > 0,
    `the first problem offers no remedy: ${JSON.stringify(problem)}`);
  const [remedy] = problem.remedies;
  const choices = remedy.params?.choices ? Object.keys(remedy.params.choices) : [];
  const request = {
    draft: DRAFT,
    code: problem.code,
    target: problem.id,
    remedy: remedy.id,
    ...(choices.length > 0 && { params: { node_type_id: choices[0] } }),
  };
  const remedied = await fetchInPage(page, `${base}/remedy`, request, token);
  check(!remedied.error, `remedy failed in the browser: ${remedied.error}`);
  check(remedied.status === 200 && remedied.body.success === true,
    `remedy answered ${remedied.status}: ${JSON.stringify(remedied.body)}`);
  const operations = remedied.body.data.operations;
  check(Array.isArray(operations) && operations.length > 0 && operations.every((op) => typeof op.op === 'string'),
    `remedy answered no operations: ${JSON.stringify(remedied.body)}`);
  log(`remedy ${remedy.id} of ${problem.id}: ${operations.map((op) => op.op).join(', ')}`);

  // Applied in the page as the editor applies them (in order, all or nothing), then the draft
  // diagnosed again: the problem is gone (the real service only: the stand-in does not judge).
  const applied = await page.evaluate(({ draft, operations }) => {
    const copy = JSON.parse(JSON.stringify(draft));
    const find = (list, id) => {
      const at = /^#(\d+)$/.exec(id);
      if (at) return Number(at[1]) < list.length ? Number(at[1]) : -1;
      return list.findIndex((item) => item.id === id);
    };
    const assign = (target, op) => {
      for (const key of op.unset ?? []) delete target[key];
      Object.assign(target, op.patch ?? {});
    };
    for (const op of operations) {
      const list = op.edgeId !== undefined ? copy.edges : copy.nodes;
      const at = find(list, op.edgeId ?? op.nodeId);
      if (at === -1) return { refused: `no element ${op.edgeId ?? op.nodeId}` };
      const item = list[at];
      if (op.op === 'removeEdge' || op.op === 'removeNode') list.splice(at, 1);
      else if (op.op === 'updateEdge') assign(item, op);
      else if (op.op === 'updateNodeConfig') {
        const config = { ...(item.data.config ?? {}) };
        assign(config, op);
        item.data = { ...item.data, config };
      } else if (op.op === 'updateNodeData') {
        const data = { ...item.data };
        assign(data, op);
        data.config = item.data.config;
        item.data = data;
      } else if (op.op === 'updateNode') {
        const data = item.data;
        assign(item, op);
        item.data = data;
      } else return { refused: `unknown operation ${op.op}` };
    }
    return { draft: copy };
  }, { draft: DRAFT, operations });
  check(!applied.refused, `the editor would refuse the remedy: ${applied.refused}`);
  if (!FAKE) {
    const again = await fetchInPage(page, `${base}/diagnose`, applied.draft, token);
    check(again.status === 200 && !again.body.data.problems.some((p) => p.id === problem.id),
      `the problem is still there after its remedy: ${JSON.stringify(again.body)}`);
    log(`diagnose after the remedy: ${again.body.data.problems.length} problem(s), ${problem.id} gone`);
  }

  // Without the token: refused, and the refusal is readable (CORS headers on refusals too).
  const unauthorized = await fetchInPage(page, `${base}/diagnose`, DRAFT, undefined);
  check(unauthorized.status === 401 && unauthorized.body.error_code === 'UNAUTHORIZED',
    `diagnose without the token: ${JSON.stringify(unauthorized)}`);
  log('without the token: 401 UNAUTHORIZED, readable by the page');

  // From the foreign origin: the browser refuses (its preflight gets no CORS answer).
  const other = await browser.newPage();
  await other.goto(foreign.origin);
  const refused = await fetchInPage(other, `${base}/diagnose`, DRAFT, token);
  check(refused.error && /Failed to fetch/.test(refused.error),
    `a page from ${foreign.origin} (not allowed) could read the Doctor: ${JSON.stringify(refused)}`);
  log(`from ${foreign.origin}: refused by the browser (${refused.error})`);

  // SIGTERM: a clean stop.
  const exited = new Promise((resolve) => doctor.child.once('exit', (code, signal) => resolve({ code, signal })));
  doctor.child.kill('SIGTERM');
  const { code, signal } = await exited;
  check(code === 0, `the Doctor stopped with ${code ?? signal} on SIGTERM; stderr:\n${doctor.stderr()}`);
  doctor = undefined;
  log(`PASS (${FAKE ? 'the fake service' : 'the real service'}, chromium ${browser.version()})`);
} catch (error) {
  failed = true;
  console.error(`e2e-doctor: FAIL: ${error instanceof Failure ? error.message : error.stack}`);
  if (doctor) console.error(`the Doctor's stderr:\n${doctor.stderr()}`);
} finally {
  await browser?.close();
  doctor?.child.kill('SIGKILL');
  editor.server.close();
  foreign.server.close();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
