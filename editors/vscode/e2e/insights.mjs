// The insight and navigation features of the server, checked in the real editor (code-server)
// by test.mjs on examples/research-agent.flowdrop.json: inlay hints, code lens, go to
// definition, references, rename, outline and completion. Each check fails the run when the
// feature does not show; each leaves a screenshot in ARTIFACTS and, in --docs-shot mode, the
// README's picture in editors/vscode/docs/ (DOCS_DIR).
import fs from 'node:fs';
import path from 'node:path';

/**
 * @param {object} e2e  what test.mjs shares: page, text (the workflow as on disk), file (its
 *   path), docsDir ('' unless --docs-shot), step (wait bound), and its helpers waitFor, fail,
 *   log, shot, gotoLineCol.
 */
export async function insightScenario(e2e) {
  const { page, text, fail, log } = e2e;
  const lines = text.split('\n');
  /** 1-based line and column (of the match's first character) of the first line matching `re`. */
  const find = (re) => {
    const idx = lines.findIndex((l) => re.test(l));
    if (idx < 0) fail(`no line matching ${re} in the workflow`);
    return { line: idx + 1, col: lines[idx].search(re) + 1 };
  };
  const editor = '.editor-group-container.active .monaco-editor';

  /** Screenshot into ARTIFACTS; with --docs-shot also the README's picture (editor area). */
  const picture = async (name, { wholeWindow = false, fullHeight = false } = {}) => {
    await e2e.shot(`01d-${name}`);
    if (!e2e.docsDir) return;
    const ed = await page.locator('.editor-group-container.active').first().boundingBox();
    if (!ed) fail(`cannot locate the editor for the README screenshot ${name}`);
    const file = path.join(e2e.docsDir, name);
    const clip = wholeWindow
      ? { x: 0, y: 0, width: 1280, height: Math.min(ed.y + ed.height, 560) }
      : { x: ed.x, y: ed.y, width: 1280 - ed.x, height: fullHeight ? ed.height : Math.min(ed.height, 520) };
    await page.screenshot({ path: file, clip });
    log(`README screenshot ${file} (${fs.statSync(file).size} bytes)`);
  };
  const cursorLine = async () => {
    const status = (await page.locator('#status\\.editor\\.selection').first().textContent().catch(() => '')) || '';
    const m = /Ln (\d+), Col (\d+)/.exec(status);
    return m ? { line: Number(m[1]), col: Number(m[2]) } : null;
  };
  /** Ctrl+S (again while the file on disk does not pass `done`: focus may lag behind a widget). */
  const saveUntil = (what, done) =>
    e2e.waitFor(what, async () => {
      const now = fs.readFileSync(e2e.file, 'utf8');
      if (done(now)) return now;
      await page.keyboard.press('Control+S');
      await page.waitForTimeout(500);
      return null;
    });
  const dismiss = async () => {
    await page.mouse.move(0, 0);
    await page.keyboard.press('Escape');
  };

  // Inlay hints: "→ web_search" after the "Web Search" label, "3 tools" after the agent's.
  // Monaco renders a hint as text injected into the line (older builds: a ::before/::after pseudo-element), so both count.
  const webSearch = find(/"label": "Web Search"/);
  const agentLabel = find(/"label": "Research Agent"/);
  // Both labels in view: the cursor on the line between them (Ctrl+G centres it).
  await e2e.gotoLineCol(Math.round((webSearch.line + agentLabel.line) / 2), 1);
  const hintLine = await e2e.waitFor('the inlay hints "→ web_search" after "Web Search" and "3 tools" after "Research Agent"', async () => {
    const rendered = await page.locator(`${editor} .view-lines .view-line`).evaluateAll((rows) =>
      rows.map((row) => {
        let s = row.textContent || '';
        for (const span of row.querySelectorAll('span')) {
          for (const pseudo of ['::before', '::after']) {
            const c = getComputedStyle(span, pseudo).content;
            if (c && c !== 'none' && c !== 'normal') s += c.replace(/^"|"$/g, '');
          }
        }
        return s.replace(/\u00a0/g, ' ');
      }),
    );
    const tool = rendered.find((l) => l.includes('"Web Search"') && /→\s*web_search/.test(l));
    const agent = rendered.find((l) => l.includes('"Research Agent"') && /3 tools/.test(l));
    return tool && agent ? [tool, agent] : null;
  });
  log(`OK inlay hints: ${hintLine.map((l) => JSON.stringify(l.trim())).join(', ')}`);
  await picture('inlay-hints.png', { fullHeight: true }); // both labels are 18 lines apart

  // Code lens above the agent: "3 tools · 1 collision" (Web Search and web-search collide).
  const agent = find(/"id": "reason\.1"/);
  await e2e.gotoLineCol(agent.line, 1);
  const lens = await e2e.waitFor('the code lens "3 tools · 1 collision" on the agent', async () => {
    const texts = await page.locator(`${editor} .codelens-decoration`).allTextContents();
    return texts.find((t) => /3 tools\s*·\s*1 collision\b/.test(t)) || null;
  });
  log(`OK code lens ${JSON.stringify(lens.trim())}`);
  await picture('code-lens.png');

  // Go to definition: F12 on the last edge's "target": "reason.1" moves to the node's id line.
  const edgeTarget = find(/"id": "e6".*"target": "reason\.1"/);
  const targetCol = lines[edgeTarget.line - 1].indexOf('"target": "reason.1"') + '"target": "'.length + 3;
  await e2e.gotoLineCol(edgeTarget.line, targetCol);
  await page.keyboard.press('F12');
  const landed = await e2e.waitFor(`the cursor on the "reason.1" id line (${agent.line}) after F12`, async () => {
    const at = await cursorLine();
    return at && at.line === agent.line ? at : null;
  });
  log(`OK F12 on an edge target moved the cursor from ${edgeTarget.line}:${targetCol} to ${landed.line}:${landed.col}`);
  await picture('definition.png');

  // References: Shift+F12 on the node id: the peek view counts the declaration, the edge
  // endpoints and the handles that embed the id (edge ids are not references).
  const expected = (text.match(/"reason\.1(-[^"]*)?"/g) || []).length;
  await e2e.gotoLineCol(agent.line, agent.col + '"id": "'.length + 2);
  await page.keyboard.press('Shift+F12');
  const peekTitle = await e2e.waitFor(`the references peek view with ${expected} references`, async () => {
    const title = (await page.locator(`${editor} .peekview-widget .peekview-title`).first().textContent()) || '';
    // "References (5)" in VS Code 1.100 (older builds: "5 references").
    const m = /References \((\d+)\)|(\d+) references?/i.exec(title);
    return m && Number(m[1] || m[2]) === expected ? title : null;
  });
  log(`OK Shift+F12 peek: ${JSON.stringify(peekTitle.trim())}`);
  await page.waitForTimeout(500); // let the peek's preview finish rendering
  await picture('references.png');
  await page.keyboard.press('Escape');
  await page.locator(`${editor} .peekview-widget`).first().waitFor({ state: 'hidden', timeout: e2e.step }).catch(() => {});

  // Rename: F2 on "toolbox.2", type a new id, Enter: the node's id, the edge endpoints and the
  // handles change. Checked on disk after a save, then undone (and saved back) for what follows.
  const renamed = find(/"id": "toolbox\.2"/);
  await e2e.gotoLineCol(renamed.line, renamed.col + '"id": "'.length + 2);
  await page.keyboard.press('F2');
  const box = page.locator('.rename-box input, .rename-box textarea').first();
  await box.waitFor({ state: 'visible', timeout: e2e.step });
  const offered = await box.inputValue();
  if (offered !== 'toolbox.2') fail(`the rename box offers ${JSON.stringify(offered)}, expected "toolbox.2" (prepareRename)`);
  await box.fill('web_tools.2');
  await picture('rename.png');
  await page.keyboard.press('Enter');
  await box.waitFor({ state: 'hidden', timeout: e2e.step });
  const after = await saveUntil('the renamed workflow saved', (now) => now !== text);
  const wanted = text.replaceAll('"toolbox.2"', '"web_tools.2"').replaceAll('"toolbox.2-', '"web_tools.2-');
  if (after !== wanted) {
    const diff = after.split('\n').map((l, i) => [wanted.split('\n')[i], l]).filter(([w, g]) => w !== g);
    fail(`rename toolbox.2 -> web_tools.2 did not change exactly the id, endpoints and handles: ${JSON.stringify(diff)}`);
  }
  const changedLines = after.split('\n').filter((l, i) => l !== lines[i]).length;
  log(`OK F2 renamed toolbox.2 -> web_tools.2 on ${changedLines} lines (id, edge endpoints, handles)`);
  await page.locator(`${editor} .view-lines`).first().click();
  await page.keyboard.press('Control+Z');
  await saveUntil('the rename undone and saved', (now) => now === text);
  log('OK rename undone (Ctrl+Z) and saved back');

  // Outline: Ctrl+Shift+O lists the agent under its role ("Consumers").
  // VS Code's JSON support lists its own symbols (every key) beside ours, and the list is
  // virtual (only the rows in view are in the DOM): filter it to "Research".
  await page.keyboard.press('Control+Shift+O');
  const symbolInput = page.locator('.quick-input-widget input');
  await symbolInput.waitFor({ state: 'visible', timeout: e2e.step });
  await symbolInput.fill('@Research');
  const row = await e2e.waitFor('"Research Agent" under "Consumers" in Go to Symbol in Editor', async () => {
    const rows = await page.locator('.quick-input-list .monaco-list-row').evaluateAll((els) =>
      els.map((r) => `${r.getAttribute('aria-label') || ''} | ${r.textContent || ''}`),
    );
    return rows.find((r) => r.includes('Research Agent') && r.includes('Consumers')) || null;
  });
  log(`OK outline: ${JSON.stringify(row)}`);
  await picture('outline.png', { wholeWindow: true });
  await page.keyboard.press('Escape');

  // Completion: Ctrl+Space just inside an edge's "target" value offers the node ids.
  const completeAt = find(/"id": "e4".*"target": "toolbox\.1"/);
  const valueCol = lines[completeAt.line - 1].indexOf('"target": "toolbox.1"') + '"target": "'.length + 1;
  await e2e.gotoLineCol(completeAt.line, valueCol);
  await page.keyboard.press('Control+Space');
  const offeredIds = await e2e.waitFor('node ids in the completion list of an edge target', async () => {
    const labels = await page.locator('.suggest-widget .monaco-list-row .label-name').allTextContents();
    const ids = ['reason.1', 'toolbox.1', 'toolbox.2', 'http_request.1'];
    return ids.every((id) => labels.some((l) => l.trim() === id)) ? labels.map((l) => l.trim()) : null;
  });
  log(`OK completion in "target": ${JSON.stringify(offeredIds)}`);
  await page.waitForTimeout(300); // the details pane
  await picture('completion.png', { fullHeight: true }); // the list opens below the line
  await dismiss();
  await page.locator('.suggest-widget').first().waitFor({ state: 'hidden', timeout: e2e.step }).catch(() => {});
}
