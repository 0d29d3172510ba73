"""The analysis core: pure Python, no pygls or lsprotocol, in layers (docs/architecture.md).

Nothing is re-exported here: importing any core module would otherwise import the whole core
first. The CLI's entry is `core.analysis.analyze(text, settings)`; the editor features' is
`core.ide`."""
