// Which documents may be FlowDrop workflows by their content, decided without the server.
//
// `flowdrop-lsp check` judges any .json/.yml/.yaml file by content (top-level `nodes` and
// `edges` of FlowDrop nodes), so an API export saved as exported.json is checked in CI and must
// be in the editor too. This test is a cheap superset of the server's: every document the server
// judges a workflow by content holds both words (its keys), anywhere in the text — an export
// may put `edges` after a huge `nodes`, so the whole text is searched (a plain substring search:
// about a millisecond for a megabyte). The server decides and stays silent on the rest.

/** Whether `text` holds both words `nodes` and `edges`. */
export function mayBeWorkflow(text: string): boolean {
  return text.includes('nodes') && text.includes('edges');
}
