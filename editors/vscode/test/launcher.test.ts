// Unit tests of bundled/tool/flowdrop_launcher.py, run with python3 (after scripts/bundle_server.py
// filled bundled/, as build-vsix.sh does). A copy of the launcher beside a made-up manifest shows
// each reason a Python is refused; the real bundle must accept this machine's python3.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const EXTENSION = path.resolve(__dirname, '..', '..');
const LAUNCHER = path.join(EXTENSION, 'bundled', 'tool', 'flowdrop_launcher.py');

interface Check {
  ok: boolean;
  python: string;
  message: string | null;
}

function check(launcher: string): Check {
  return JSON.parse(execFileSync('python3', [launcher, '--check'], { encoding: 'utf8' })) as Check;
}

/** A copy of the launcher in a bundle of its own, with `manifest` (or none). */
function fakeBundle(manifest: object | undefined): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'flowdrop-launcher-'));
  fs.mkdirSync(path.join(root, 'tool'));
  fs.copyFileSync(LAUNCHER, path.join(root, 'tool', 'flowdrop_launcher.py'));
  if (manifest) fs.writeFileSync(path.join(root, 'manifest.json'), JSON.stringify(manifest));
  return path.join(root, 'tool', 'flowdrop_launcher.py');
}

const here = execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_platform())'], { encoding: 'utf8' }).trim();

test('the bundle accepts python3 of this machine', () => {
  const result = check(LAUNCHER);
  assert.equal(result.message, null);
  assert.equal(result.ok, true);
  assert.match(result.python, /^Python 3\.\d+\.\d+ \(/);
});

test('the bundled server runs through the launcher', () => {
  const out = execFileSync('python3', ['-I', LAUNCHER, '--version'], { encoding: 'utf8' });
  assert.match(out, /^flowdrop-lsp \d+\.\d+/);
});

test('a bundle without a manifest is reported as damaged', () => {
  const result = check(fakeBundle(undefined));
  assert.equal(result.ok, false);
  assert.match(result.message ?? '', /missing or damaged .*reinstall/);
});

test('a bundle built for another platform is refused, naming both platforms', () => {
  const result = check(fakeBundle({ platform: 'macosx-11.0-arm64', python: ['cp310', 'cp311', 'cp312', 'cp313', 'cp314'] }));
  assert.equal(result.ok, false);
  assert.ok(result.message?.includes(`on ${here} cannot load`), result.message ?? '');
  assert.ok(result.message?.includes('macosx-11.0-arm64'), result.message ?? '');
});

test('a CPython version the bundle has no compiled packages for is refused, naming those it has', () => {
  const result = check(fakeBundle({ platform: here, python: ['cp39'] }));
  assert.equal(result.ok, false);
  assert.match(result.message ?? '', /holds compiled dependencies for CPython 3\.9 only/);
});

test('the server refuses to start where --check refuses, with the reason on stderr', () => {
  const launcher = fakeBundle({ platform: here, python: ['cp39'] });
  assert.throws(
    () => execFileSync('python3', ['-I', launcher, 'serve'], { encoding: 'utf8', stdio: 'pipe' }),
    (err: { status: number; stderr: string }) => err.status === 3 && /flowdrop-lsp \(bundled\): .*CPython 3\.9 only/.test(err.stderr),
  );
});
