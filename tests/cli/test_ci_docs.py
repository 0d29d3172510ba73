"""The CI examples in docs/ci.md: the GitHub Actions workflow parses, uses the actions it
names, and its `flowdrop-lsp` commands are ones the command line accepts; the pre-commit
example names the hook this repository defines. (GitHub Actions cannot run here: the SARIF
upload itself is untested.)"""

from __future__ import annotations

import re
import shlex

import pytest
import yaml

from flowdrop_lsp.entry import build_parser
from tests.support.builders import REPO

CI_DOC = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")


def _yaml_blocks(text: str) -> list[object]:
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]


def _actions_workflow() -> dict:
    blocks = [b for b in _yaml_blocks(CI_DOC) if isinstance(b, dict) and "jobs" in b]
    assert len(blocks) == 1
    workflow: dict = blocks[0]
    return workflow


def test_the_actions_workflow_checks_out_installs_checks_and_uploads_sarif() -> None:
    workflow = _actions_workflow()
    (job,) = workflow["jobs"].values()
    steps = job["steps"]
    uses = [step["uses"].split("@")[0] for step in steps if "uses" in step]
    assert uses == [
        "actions/checkout",
        "actions/setup-python",
        "github/codeql-action/upload-sarif",
    ]
    assert job["permissions"]["security-events"] == "write"
    upload = steps[-1]
    assert upload["if"] == "always()"  # findings make check exit 1: upload them all the same
    runs = [step["run"] for step in steps if "run" in step]
    checks = [shlex.split(run) for run in runs if run.startswith("flowdrop-lsp ")]
    assert len(checks) == 1
    args = build_parser().parse_args(checks[0][1:])
    assert args.command == "check" and args.format == "sarif"
    assert str(args.output_file) == upload["with"]["sarif_file"]
    assert any(run.startswith("pip install") for run in runs)


@pytest.mark.parametrize("command", re.findall(r"`(flowdrop-lsp (?:check|rule)[^`]*)`", CI_DOC))
def test_every_command_quoted_in_the_ci_page_parses(command: str) -> None:
    words = [w for w in shlex.split(command) if not w.startswith("<")]
    build_parser().parse_args(words[1:])


def test_the_pre_commit_example_names_the_hook_this_repository_defines() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    configs = [b for b in _yaml_blocks(CI_DOC) if isinstance(b, dict) and "repos" in b]
    assert len(configs) == 1
    (repo,) = configs[0]["repos"]
    assert [hook["id"] for hook in repo["hooks"]] == [hook["id"] for hook in hooks]
