// Unit tests of src/paths.ts (node:test; `npm test` bundles them with esbuild first).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandPath } from '../src/paths';

const folders = [
  { name: 'site', fsPath: '/work/site' },
  { name: 'tools', fsPath: '/work/tools' },
];
const home = '/home/ana';

test('${workspaceFolder} is the first workspace folder', () => {
  assert.equal(expandPath('${workspaceFolder}/.venv/bin/flowdrop-lsp', folders, home), '/work/site/.venv/bin/flowdrop-lsp');
});

test('${workspaceFolder:name} picks the named folder; an unknown name is undefined', () => {
  assert.equal(expandPath('${workspaceFolder:tools}/bin/flowdrop-lsp', folders, home), '/work/tools/bin/flowdrop-lsp');
  assert.equal(expandPath('${workspaceFolder:nope}/bin/flowdrop-lsp', folders, home), undefined);
});

test('~ and ${userHome} are the home folder', () => {
  assert.equal(expandPath('~/.local/bin/flowdrop-lsp', folders, home), '/home/ana/.local/bin/flowdrop-lsp');
  assert.equal(expandPath('${userHome}/bin/flowdrop-lsp', folders, home), '/home/ana/bin/flowdrop-lsp');
  assert.equal(expandPath('~', folders, home), '/home/ana');
});

test('a relative path is relative to the first folder; without a folder it is undefined', () => {
  assert.equal(expandPath('.venv/bin/flowdrop-lsp', folders, home), '/work/site/.venv/bin/flowdrop-lsp');
  assert.equal(expandPath('./x/../flowdrop-lsp', folders, home), '/work/site/flowdrop-lsp');
  assert.equal(expandPath('.venv/bin/flowdrop-lsp', [], home), undefined);
  assert.equal(expandPath('${workspaceFolder}/flowdrop-lsp', [], home), undefined);
});

test('absolute paths and other ~ uses are left alone', () => {
  assert.equal(expandPath('/opt/flowdrop/bin/flowdrop-lsp', folders, home), '/opt/flowdrop/bin/flowdrop-lsp');
  assert.equal(expandPath('/opt/~user/flowdrop-lsp', folders, home), '/opt/~user/flowdrop-lsp');
});

test('paths with CJK characters and emoji pass through', () => {
  assert.equal(expandPath('${workspaceFolder}/工具/🔎/flowdrop-lsp', folders, home), '/work/site/工具/🔎/flowdrop-lsp');
});
