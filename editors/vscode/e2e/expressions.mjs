// The expression checks in the real editor (code-server), run by test.mjs (step 6d) on the real
// site's weather workflow (tests/corpus/atelier-cms/config/sync), copied by run.sh into the
// workspace's config/sync with a misspelt Twig filter planted in its data mapper's template:
// `(q|split(',')|first|trim)` -> `(q|split(',')|frist|trim)`.
//   1. an error squiggle, and in the Problems panel one R11 entry "unknown filter 'frist'" at the
//      line and column of `frist`;
//   2. the hover (Ctrl+K Ctrl+I) on the input `q` inside the template names where it comes from:
//      "dynamic input 'Query' (string) of this data mapper";
//   3. Ctrl+. on `frist`: the menu's first entry (the preferred fix) is "Write 'first'"; Enter
//      applies it, the squiggle and the R11 entry go, and the saved file is the site's own.
// Screenshots 06d-*.png in ARTIFACTS.
import fs from 'node:fs';
import path from 'node:path';

export const PLANTED = "(q|split(',')|frist|trim)";
export const GOOD = "(q|split(',')|first|trim)";

/**
 * @param {object} e2e  what test.mjs shares: page, workspace, file (the planted workflow,
 *   relative to workspace), original (the site's own file, to compare the fixed one with),
 *   step, and its helpers waitFor, fail, log, shot, quickOpen, gotoLineCol, openProblems,
 *   problemRows, openQuickFixMenu, activeSquiggles, saved, keyboardHover.
 */
export async function expressionScenario(e2e) {
  const { page, fail, log, waitFor } = e2e;
  const file = path.join(e2e.workspace, e2e.file);
  const name = path.basename(file);
  const planted = fs.readFileSync(file, 'utf8');
  const original = fs.readFileSync(e2e.original, 'utf8');
  if (planted !== original.replace(GOOD, PLANTED) || planted === original) {
    fail(`${e2e.file} is not the site's weather workflow with ${PLANTED} planted once`);
  }
  const lines = planted.split('\n');
  const idx = lines.findIndex((l) => l.includes(PLANTED));
  // 1-based line and columns as VS Code shows them (utf-16; the line is ASCII).
  const line = idx + 1;
  const fristCol = lines[idx].indexOf('frist') + 1;
  const qCol = lines[idx].indexOf(PLANTED) + 2; // the `q` after `(`

  await e2e.quickOpen(name);
  log(`opened ${e2e.file} (the real site's weather workflow, 'frist' planted on line ${line})`);

  // 1. The squiggle, and one R11 entry in the Problems panel at `frist`.
  await e2e.gotoLineCol(line, fristCol + 2);
  await waitFor('an error squiggle on the misspelt filter', async () => (await e2e.activeSquiggles().count()) > 0);
  await e2e.openProblems();
  await waitFor(`an R11 entry for ${name} in the Problems panel`, async () => {
    const r = (await e2e.problemRows()).filter((t) => t.includes('R11'));
    return r.length > 0 ? r : null;
  });
  await page.waitForTimeout(1000); // let a second publish (if any) arrive
  const r11 = (await e2e.problemRows()).filter((t) => t.includes('R11')).map((t) => t.split(' | ')[0]);
  for (const r of r11) log(`   ${r}`);
  if (r11.length !== 1) fail(`expected one R11 entry in the Problems panel, got ${r11.length}: ${r11.join('; ')}`);
  if (!r11[0].includes("unknown filter 'frist'")) fail(`the R11 entry does not say "unknown filter 'frist'": ${r11[0]}`);
  const at = new RegExp(`\\b${line}\\b\\D+\\b${fristCol}\\b`);
  if (!at.test(r11[0])) fail(`the R11 entry is not at line ${line}, column ${fristCol} (\`frist\`): ${r11[0]}`);
  log(`OK Problems panel: R11 "unknown filter 'frist'" at ${line}:${fristCol} (\`frist\`)`);
  await e2e.shot('06d-expression-r11.png');

  // 2. Hover on `q` inside the template (keyboard: Ctrl+K Ctrl+I, the cursor on `q`).
  await e2e.gotoLineCol(line, qCol);
  const wanted = "dynamic input 'Query' (string) of this data mapper";
  const hoverText = await e2e.keyboardHover('the hover on `q` naming its dynamic input', (text) =>
    text.includes(wanted) ? text : null,
  );
  log(`OK hover on \`q\` (${line}:${qCol}): ${JSON.stringify(hoverText.slice(0, 200))}`);
  await e2e.shot('06d-expression-hover.png');
  await page.keyboard.press('Escape');

  // 3. Ctrl+. on `frist`, Enter: the preferred fix (VS Code lists it first).
  await e2e.gotoLineCol(line, fristCol + 2);
  const { widget, items } = await e2e.openQuickFixMenu('the squiggle on `frist`');
  if (!items.length || !items[0].includes("Write 'first'")) {
    fail(`the quick-fix menu's first entry is not "Write 'first'": ${JSON.stringify(items)}`);
  }
  await e2e.shot('06d-expression-quickfix-menu.png');
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: e2e.step }).catch(() => {});
  await waitFor('the squiggle to go after the quick fix', async () => (await e2e.activeSquiggles().count()) === 0);
  await waitFor('no R11 entry left in the Problems panel', async () =>
    (await e2e.problemRows()).every((t) => !t.includes('R11')),
  );
  const fixed = await e2e.saved(file, planted, `the fixed ${name}`);
  if (fixed !== original) {
    const diff = fixed.split('\n').map((l, i) => [original.split('\n')[i], l]).filter(([a, b]) => a !== b);
    fail(`the fixed ${name} is not the site's own: ${JSON.stringify(diff.slice(0, 3))}`);
  }
  log(`OK quick fix "Write 'first'" applied: line ${line} reads ${GOOD} again, the saved file is the site's own`);
  await e2e.shot('06d-expression-after-fix.png');
}
