"""What tests share, in one place: no test file imports another (tests/test_repository.py checks).

- builders.py: JSON workflow builders, the repository's paths (fixtures, the vendored corpus).
- drupal.py: Drupal config YAML workflow builders.
- samples.py: small example workflows several suites read (navigation, insight, tool routes).
- engine.py: the engine's differential state machine and the views it compares.
- cli.py: running `flowdrop-lsp check` in-process.
- lsp.py: a pytest-lsp session, the client capabilities tested, edits and positions.
- insight.py: the wide-character example documents hover, inlay hints and code lens share.
- raw_lsp.py: a server driven over raw bytes (framing, malformed messages).
- editors.py: real editors (Neovim, Vim, Emacs) driven headless.
- repository.py: what the repository tests share with the docs tests.
"""
