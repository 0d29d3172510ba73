// A repair in the real editor (code-server), run by test.mjs (step 6e) on the real site's image
// agent workflow (tests/corpus/atelier-cms/config/sync), copied by run.sh into the workspace's
// config/sync with its reasoning node's `maxTokens: 8192` misspelt `maxTokes: 8192`, beside
// the site's node type aincient_reason (which declares maxTokens, default 1024):
//   1. a warning squiggle, and in the Problems panel one R6.c entry naming 'maxTokes' with
//      "did you mean 'maxTokens'?" at the key's line and column;
//   2. the hover (Ctrl+K Ctrl+I) on the key shows the node type's parameters ("takes in
//      config"), maxTokens among them with its default 1024;
//   3. Ctrl+. on the key: the menu's first entry (the preferred fix) is "Rename 'maxTokes' to
//      'maxTokens'", and "Remove 'maxTokes'" is offered after it; Enter applies the rename, the
//      squiggle and the R6.c entry go, and the saved file is the site's own (8192 kept).
// Screenshots 06e-*.png in ARTIFACTS.
import fs from 'node:fs';
import path from 'node:path';

export const PLANTED = '        maxTokes: 8192';
export const GOOD = '        maxTokens: 8192';
const RENAME = "Rename 'maxTokes' to 'maxTokens'";
const REMOVE = "Remove 'maxTokes'";

/**
 * @param {object} e2e  what test.mjs shares: page, workspace, file (the planted workflow,
 *   relative to workspace), original (the site's own file, to compare the fixed one with),
 *   step, and its helpers waitFor, fail, log, shot, quickOpen, gotoLineCol, openProblems,
 *   problemRows, openQuickFixMenu, activeSquiggles, saved, keyboardHover.
 */
export async function remedyScenario(e2e) {
  const { page, fail, log, waitFor } = e2e;
  const file = path.join(e2e.workspace, e2e.file);
  const name = path.basename(file);
  const planted = fs.readFileSync(file, 'utf8');
  const original = fs.readFileSync(e2e.original, 'utf8');
  if (planted !== original.replace(`\n${GOOD}\n`, `\n${PLANTED}\n`) || planted === original) {
    fail(`${e2e.file} is not the site's image agent workflow with ${PLANTED.trim()} planted once`);
  }
  const lines = planted.split('\n');
  const idx = lines.indexOf(PLANTED);
  // 1-based line and column as VS Code shows them (the line is ASCII).
  const line = idx + 1;
  const keyCol = PLANTED.indexOf('maxTokes') + 1;

  await e2e.quickOpen(name);
  log(`opened ${e2e.file} (the real site's image agent, 'maxTokes' planted on line ${line})`);

  // 1. The squiggle, and one R6.c entry in the Problems panel at the key.
  await e2e.gotoLineCol(line, keyCol + 2);
  // R6.c is a warning: test.mjs's activeSquiggles() counts error squiggles only.
  const warnings = () => page.locator('.editor-group-container.active .monaco-editor .squiggly-warning');
  await waitFor('a warning squiggle on the misspelt key', async () => (await warnings().count()) > 0);
  await e2e.openProblems();
  // The workflows opened by the earlier steps list many problems above this file's (the panel
  // shows only the rows in view): the panel's own filter keeps the rows naming the key.
  const filter = page.getByPlaceholder(/^Filter \(e\.g\. text/).first();
  await filter.fill('maxTokes');
  const entry = (t) => t.includes('R6.c') && t.includes('maxTokes');
  await waitFor(`an R6.c entry for ${name} in the Problems panel`, async () => {
    const r = (await e2e.problemRows()).filter(entry);
    return r.length > 0 ? r : null;
  });
  await page.waitForTimeout(1000); // let a second publish (if any) arrive
  const r6c = (await e2e.problemRows()).filter(entry).map((t) => t.split(' | ')[0]);
  for (const r of r6c) log(`   ${r}`);
  if (r6c.length !== 1) fail(`expected one R6.c entry on 'maxTokes', got ${r6c.length}: ${r6c.join('; ')}`);
  if (!r6c[0].includes("did you mean 'maxTokens'")) fail(`the R6.c entry does not say "did you mean 'maxTokens'": ${r6c[0]}`);
  const at = new RegExp(`\\b${line}\\b\\D+\\b${keyCol}\\b`);
  if (!at.test(r6c[0])) fail(`the R6.c entry is not at line ${line}, column ${keyCol} (the key): ${r6c[0]}`);
  log(`OK Problems panel: R6.c "did you mean 'maxTokens'?" at ${line}:${keyCol}`);
  await e2e.shot('06e-remedy-r6c.png');

  // 2. Hover on the key (keyboard: Ctrl+K Ctrl+I): the node type's parameters.
  await e2e.gotoLineCol(line, keyCol + 2);
  const hoverText = await e2e.keyboardHover("the hover on the key listing the node type's parameters", (text) => {
    // Our hover, not only the problem's message VS Code shows above it: the parameter list.
    const listed = text.includes('takes in config') && text.includes('maxTokens') && text.includes('default 1024');
    return listed && text.includes('aincient_reason') ? text : null;
  });
  const ours = hoverText.slice(Math.max(0, hoverText.indexOf('Config key')));
  log(`OK hover on 'maxTokes' (${line}:${keyCol}): ${JSON.stringify(ours.slice(0, 240))}`);
  await e2e.shot('06e-remedy-hover.png');
  await page.keyboard.press('Escape');

  // 3. Ctrl+. on the key, Enter: the preferred fix (VS Code lists it first), the rename.
  await e2e.gotoLineCol(line, keyCol + 2);
  const { widget, items } = await e2e.openQuickFixMenu('the warning squiggle on `maxTokes`', warnings);
  if (!items.length || !items[0].includes(RENAME)) {
    fail(`the quick-fix menu's first entry is not "${RENAME}": ${JSON.stringify(items)}`);
  }
  if (!items.some((t) => t.includes(REMOVE))) fail(`the menu does not offer "${REMOVE}": ${JSON.stringify(items)}`);
  await e2e.shot('06e-remedy-quickfix-menu.png');
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: e2e.step }).catch(() => {});
  await waitFor('the warning squiggle to go after the quick fix', async () => (await warnings().count()) === 0);
  await waitFor('no R6.c entry on maxTokes left in the Problems panel', async () =>
    (await e2e.problemRows()).every((t) => !entry(t)),
  );
  await filter.fill('');
  const fixed = await e2e.saved(file, planted, `the repaired ${name}`);
  if (fixed !== original) {
    const diff = fixed.split('\n').map((l, i) => [original.split('\n')[i], l]).filter(([a, b]) => a !== b);
    fail(`the repaired ${name} is not the site's own: ${JSON.stringify(diff.slice(0, 3))}`);
  }
  log(`OK quick fix "${RENAME}" applied: line ${line} reads maxTokens: 8192 again, the saved file is the site's own`);
  await e2e.shot('06e-remedy-after-fix.png');
}
