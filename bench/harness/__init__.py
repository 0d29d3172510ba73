"""The benchmark harness: the mechanics every benchmark in bench/ shares.

- `paths`    where things are (bench/, the repository, bench/.cache) and the stderr log line;
- `client`   the LSP client over stdio (framing, UTF-16 incremental changes, timing, RSS);
- `session`  one timed server session: open, the plan's edits, samples and session info;
- `peers`    the servers we start: ours, the pygls floor, vscode-json, yaml-language-server;
- `stats`    percentiles and the number formats of the reports;
- `report`   machine information, RESULTS.md sections, the raw JSON;
- `cli`      `flowdrop-lsp check` timed in a fresh process;
- `engine`   the one place that imports flowdrop_lsp's internals (in-process benchmarks).

What is measured, on which documents, and how it is reported lives in bench/scenarios/.
"""
