// Unit tests of src/workflows.ts (node:test; `npm test` bundles them with esbuild first).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { mayBeWorkflow } from '../src/workflows';

const example = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'examples', 'research-agent.flowdrop.json'), 'utf8');

test('a workflow export (any name) may be a workflow', () => {
  assert.equal(mayBeWorkflow(example), true);
  assert.equal(mayBeWorkflow('nodes:\n  - id: a\n    type: x\nedges: []\n'), true);
});

test('edges after a huge nodes array are found', () => {
  const nodes = Array.from({ length: 40000 }, (_, i) => ({ id: `n${i}`, data: { label: `Node ${i}` } }));
  const text = JSON.stringify({ nodes, edges: [] });
  assert.ok(text.length > 1_000_000);
  assert.equal(mayBeWorkflow(text), true);
});

test('package.json, tsconfig.json, docker-compose.yml are not', () => {
  assert.equal(mayBeWorkflow('{"name": "x", "version": "1.0.0", "scripts": {"test": "vitest"}}'), false);
  assert.equal(mayBeWorkflow('{\n  // c\n  "compilerOptions": {"strict": true,},\n}\n'), false);
  assert.equal(mayBeWorkflow('services:\n  web:\n    image: nginx:1.27\n'), false);
  assert.equal(mayBeWorkflow('{"nodes": [], "links": []}'), false); // d3
});
