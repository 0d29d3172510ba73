# The few commands people type. Each target makes its own virtual environment in .venv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXAMPLE := examples/research-agent.flowdrop.json
SITE := examples/drupal-site

.PHONY: demo test test-clients test-all lint generate bench fuzz vsix e2e-vscode e2e-nvim e2e-doctor clean

$(BIN)/python:
	@echo "Creating the virtual environment $(VENV)..."
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -q -q --disable-pip-version-check --upgrade pip

# Quiet: pip's output (its editable-install notes among it) goes to a log, shown only when the
# install fails. The package's bytecode is then compiled, as pip compiles an installed wheel's:
# an editable install leaves it to the first import, which writes nothing where
# PYTHONDONTWRITEBYTECODE is set (containers often set it), and every process start (a
# `check`, the server) then compiled 0.2 s of modules again.
COMPILE := $(BIN)/python -m compileall -q -j 0 flowdrop_lsp >/dev/null

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "Installing flowdrop-lsp into $(VENV) (editable)..."
	@log=$$(mktemp) && { $(BIN)/python -m pip install -q -q -e . >$$log 2>&1 || \
	  { cat $$log; rm -f $$log; exit 1; }; } && rm -f $$log
	@$(COMPILE)
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	@$(COMPILE)
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	@echo "== 1. Check the shipped example: a CMP-9 collision two toolbox hops away"
	@echo "\$$ flowdrop-lsp check $(EXAMPLE)"
	@$(BIN)/flowdrop-lsp check $(EXAMPLE) || true
	@echo
	@echo "== 2. The suggested fixes, as a diff (nothing is written)"
	@echo "\$$ flowdrop-lsp check --diff $(EXAMPLE)"
	@$(BIN)/flowdrop-lsp check --diff $(EXAMPLE) || true
	@echo
	@echo "== 3. Apply them to a copy, and check again"
	@tmp=$$(mktemp -d) && cp $(EXAMPLE) $$tmp/ && \
	  echo "\$$ flowdrop-lsp check --fix $$tmp/$$(basename $(EXAMPLE))" && \
	  $(BIN)/flowdrop-lsp check --fix $$tmp/$$(basename $(EXAMPLE)); \
	  echo "exit code: $$?"; rm -rf $$tmp
	@echo
	@echo "== 4. A Drupal site's config: workflow YAML in config/sync (a collision and a dead tool route)"
	@echo "\$$ flowdrop-lsp check $(SITE)"
	@$(BIN)/flowdrop-lsp check $(SITE) || true
	@echo
	@echo "== 5. The fix, written as Drupal's dumper would (nothing is written)"
	@echo "\$$ flowdrop-lsp check --diff $(SITE)"
	@$(BIN)/flowdrop-lsp check --diff $(SITE) || true
	@echo
	@echo "== 6. A real site as one system (a copy of tests/corpus/atelier-cms): delete a workflow"
	@echo "   that brand_studio calls, and list a node type that does not exist (the real site's"
	@echo "   four FD-TOOL-ROUTE warnings are left out of what is shown)"
	@tmp=$$(mktemp -d) && cp -r tests/corpus/atelier-cms/config $$tmp/ && cd $$tmp && \
	  rm config/sync/flowdrop_workflow.flowdrop_workflow.aincient_brand_specialist_colour.yml && \
	  sed -i 's/    - flowdrop_node_type.flowdrop_node_type.chat_output$$/    - flowdrop_node_type.flowdrop_node_type.chat_outptu/' \
	    config/sync/flowdrop_workflow.flowdrop_workflow.aincient_weather.yml && \
	  echo "\$$ flowdrop-lsp check --no-cache config/sync" && \
	  ($(abspath $(BIN))/flowdrop-lsp check --no-cache config/sync | grep -v FD-TOOL-ROUTE || true); \
	  rm -rf $$tmp
	@echo
	@echo "== 7. What FlowDrop refuses at launch, found before it: the real weather workflow's three"
	@echo "   dead data_mapper edges, plus a misspelt setting ('timeout: 30' written 'timout: 30') and"
	@echo "   a secret without its '\$$' planted in a copy; every fix offered, then what --fix does, as a"
	@echo "   diff: the setting renamed with its value kept, the secret written as one"
	@tmp=$$(mktemp -d) && cp -r tests/corpus/atelier-cms/config $$tmp/ && cd $$tmp && \
	  wf=config/sync/flowdrop_workflow.flowdrop_workflow.aincient_weather.yml && \
	  sed -i '0,/^        timeout: 30$$/s//        timout: 30/; 0,/^        body: '"''"'$$/s//        body: '"'"'{{ secrets.WEATHER_KEY }}'"'"'/' $$wf && \
	  echo "\$$ flowdrop-lsp check --no-cache --show-fixes $$wf" && \
	  ($(abspath $(BIN))/flowdrop-lsp check --no-cache --show-fixes $$wf || true) && \
	  echo "\$$ flowdrop-lsp check --no-cache --diff $$wf" && \
	  ($(abspath $(BIN))/flowdrop-lsp check --no-cache --diff $$wf || true); \
	  rm -rf $$tmp
	@echo
	@echo "== 8. FlowDrop's visual editor asks the Doctor: the weather workflow as the editor posts it"
	@echo "   (its JSON export) with 'timeout' written 'timout'; the problem, the remedy the editor's"
	@echo "   button asks for, its operations applied to the draft as the editor applies them"
	@tmp=$$(mktemp -d) && cp -r tests/corpus/atelier-cms/config $$tmp/ && \
	  $(BIN)/python examples/doctor_session.py $(abspath $(BIN))/flowdrop-lsp $$tmp \
	    tests/corpus/atelier-cms/json/aincient_weather.flowdrop.json; rm -rf $$tmp
	@echo
	@echo "== What next"
	@echo "   Check your own site:   $(BIN)/flowdrop-lsp check path/to/config/sync"
	@echo "   ([*] --fix fixes it, [~] --fix --unsafe-fixes does, [?] choose a fix: --show-fixes)"
	@echo "   Your editor:           docs/editors.md (VS Code, Neovim, Vim + ALE, Emacs + eglot)"
	@echo "   CI:                    docs/ci.md (GitHub Actions + SARIF code scanning, pre-commit, a baseline)"
	@echo "   FlowDrop's editor:     $(BIN)/flowdrop-lsp doctor path/to/config/sync (docs/doctor.md)"
	@echo "   Every option:          docs/command-line.md; settings: docs/configuration.md"

# The suite on every core (pytest-xdist), LSP tests under the first client profile (VS Code's);
# `make test-clients` runs them under the others (Neovim's), `make test-all` both: CI (.ci/run)
# runs `make test` then `make test-clients`. Tests go to the workers one by one, as each worker
# is free (so that no long file left for the end keeps one core busy alone), except the files
# marked `xdist_group` (a costly module fixture: all of its tests on one worker).
PYTEST_PARALLEL ?= -n auto --dist loadgroup
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) $(PYTEST_ARGS)

test-clients: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) --clients others $(PYTEST_ARGS)

test-all: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) --clients all $(PYTEST_ARGS)

# The fuzz and property tests (every test with the `hypothesis` marker, tests/conftest.py), long:
# `--slow` raises hypothesis's examples 25-fold (`make test` runs them short). FUZZ_MINUTES bounds
# the run: when it is up, pytest is interrupted and the run passes only if nothing had failed by
# then (hypothesis's database keeps any failure found).
FUZZ_MINUTES ?= 10
fuzz: $(VENV)/.installed-test
	@log=$$(mktemp); timeout -s INT $$(( $(FUZZ_MINUTES) * 60 )) \
	  $(BIN)/python -m pytest --slow -q -m hypothesis > $$log 2>&1; status=$$?; tail -n 25 $$log; \
	  if [ $$status -eq 124 ]; then \
	    grep -qE '(FAILED|ERROR) ' $$log && exit 1; \
	    echo "fuzz: time budget of $(FUZZ_MINUTES) min reached, no failure so far"; \
	  else exit $$status; fi

lint: $(VENV)/.installed-test
	$(BIN)/ruff check flowdrop_lsp tests bench scripts
	$(BIN)/ruff format --check flowdrop_lsp tests bench scripts
	$(BIN)/mypy

# What is generated from the rule registry (core/rules/registry.py): the shipped rule pages
# (flowdrop_lsp/docs/rules/), the README's rule list, docs/spec-standing.md. After adding or
# changing a rule; the tests fail until they are regenerated (scripts/generate_docs.py --check
# says which are out of date).
generate: $(VENV)/.installed
	$(BIN)/python scripts/generate_docs.py

bench: $(VENV)/.installed-test
	bash bench/install-json-server.sh >/dev/null
	$(BIN)/python bench/run.py $(BENCH_ARGS)
	$(BIN)/python bench/yaml_bench.py $(YAML_BENCH_ARGS)
	$(BIN)/python bench/navigation_bench.py $(NAV_BENCH_ARGS)
	$(BIN)/python bench/hover_bench.py $(HOVER_BENCH_ARGS)
	$(BIN)/python bench/site_bench.py $(SITE_BENCH_ARGS)
	$(BIN)/python bench/doctor_bench.py $(DOCTOR_BENCH_ARGS)
	$(BIN)/python bench/site_open_bench.py $(SITE_OPEN_BENCH_ARGS)
	$(BIN)/python bench/pathological.py --cases export_53mb,pairs_chain_cycle $(PATHOLOGICAL_BENCH_ARGS)

# The VS Code extension with the server bundled in it (python3 >= 3.11, node 20, npm; PyPI and
# npm the first time, their caches after: editors/vscode/README.md).
vsix:
	bash editors/vscode/scripts/build-vsix.sh

# Real VS Code (code-server), two runs: the server named by flowdrop.server.path with
# ${workspaceFolder}, then the bundled server (no setting, no flowdrop-lsp on PATH, no .venv).
e2e-vscode: $(VENV)/.installed
	bash editors/vscode/e2e/install-deps.sh
	bash editors/vscode/e2e/run.sh --server $(abspath $(BIN))/flowdrop-lsp

# FlowDrop's editor calling `flowdrop-lsp doctor` from a page of another origin, in headless
# chromium: CORS and its preflight with the bearer token, diagnose then remedy on the corpus
# site, a foreign origin refused by the browser. Installs Debian's chromium (apt-get, as root,
# once) and playwright-core (npm, into tests/doctor/browser/node_modules): tests/doctor/browser/.
e2e-doctor: $(VENV)/.installed
	bash tests/doctor/browser/install-deps.sh
	bash tests/doctor/browser/run.sh --server $(abspath $(BIN))/flowdrop-lsp

# Vim 9 + ALE, Emacs 28 + eglot and Debian's own Neovim (0.7.2) for tests/editors (Debian; as root; .ci/run runs it).
.PHONY: editors-deps
editors-deps:
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends vim vim-ale emacs-nox elpa-eglot neovim || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends vim vim-ale emacs-nox elpa-eglot neovim; }

# FlowDrop's own engines, the tests' oracles (Debian; as root; .ci/run runs it): Symfony's YAML
# parser, how Drupal reads config (tests/core/syntax/yaml/test_symfony_scalars.py); Twig and
# ExpressionLanguage, how FlowDrop validates expressions (tests/core/expressions). Without them
# those tests skip saying so, unless FLOWDROP_REQUIRE_ORACLES=1 (CI) makes that a failure.
.PHONY: oracle-deps
ORACLE_PACKAGES := php-cli php-symfony-yaml php-twig php-symfony-expression-language php-symfony-property-access
oracle-deps:
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(ORACLE_PACKAGES) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(ORACLE_PACKAGES); }

e2e-nvim: $(VENV)/.installed-test
	$(BIN)/python -m pytest tests/editors/test_neovim.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
