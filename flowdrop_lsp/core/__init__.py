"""The analysis core: pure Python, no pygls or lsprotocol, in layers (docs/architecture.md).

Nothing is re-exported here: importing any core module would otherwise import the whole core
first. The CLI and the server reach the analysis through the facade (`core.facade`: the host,
`core.workspace.host`, and the vocabulary they share with it); the editor features' entry is
`core.ide`; `core.analysis.analyze(text, settings)` reads one text at once (what the tests
ask)."""
