"""`check --fix` fixes node-type definitions too (issue 29): the site's checks judge them, and
their fixes (a misspelt callee in a call type's `executor_plugin`, a call type following its
callee's renamed input) are written like a workflow's; the workflows of their folder are then
judged with the fixed definition. `--diff` shows the same without writing (the registries read
the fixed text in memory). A renamed contract name is followed by the call type in bulk; the
callee's rename back is only ever chosen by hand (the two together would swap the names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run, texts_of
from tests.support.site import plant

NODE_TYPE_PREFIX = "flowdrop_node_type.flowdrop_node_type."
SHAPE_TYPE = f"{NODE_TYPE_PREFIX}flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_shape.yml"
COLOUR_TYPE = f"{NODE_TYPE_PREFIX}flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_colour.yml"
COLOUR = "flowdrop_workflow.flowdrop_workflow.aincient_brand_specialist_colour.yml"


def test_fix_repairs_a_misspelt_callee_in_its_node_type(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pristine = texts_of(site)
    plant(
        site,
        SHAPE_TYPE,
        "flowdrop_workflow:aincient_brand_specialist_shape'\n",
        "flowdrop_workflow:aincient_brand_specialist_shpae'\n",
    )
    code, out, _ = run(capsys, "--no-cache", "sync")
    assert code == 1
    assert f"{SHAPE_TYPE}:27:18: error FD-CALL [*] executor_plugin calls workflow" in out
    assert "did you mean 'aincient_brand_specialist_shape'?" in out
    assert "[*] 1 fixable with --fix" in out

    planted = texts_of(site)
    code, diff, err = run(capsys, "--no-cache", "--diff", "sync")
    assert code == 1  # the files as they are have errors
    assert texts_of(site) == planted  # --diff writes nothing
    assert f"--- sync/{SHAPE_TYPE}" in diff
    assert (
        "+executor_plugin: 'flowdrop_workflow_executor:flowdrop_workflow:aincient_brand_specialist_shape'"
        in diff
    )
    assert [line for line in diff.splitlines() if line.startswith("--- ")] == [
        f"--- sync/{SHAPE_TYPE}"
    ]

    code, out, err = run(capsys, "--no-cache", "--fix", "sync")
    assert code == 0, out
    assert f"made 1 change in sync/{SHAPE_TYPE}, fixing 1 finding" in err
    assert "FD-CALL" not in out  # brand_studio's finding went with it, in the same run
    assert texts_of(site) == pristine


def test_unsafe_fixes_follow_a_renamed_input_in_the_call_type_never_both_ways(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pristine = texts_of(site)
    plant(site, COLOUR, "\n    name: ask\n", "\n    name: question\n")
    code, out, _ = run(capsys, "--no-cache", "--show-fixes", "sync")
    assert code == 1
    # The callee's rename back: offered, chosen by hand only.
    assert "fix: Rename 'question' back to 'ask' (unsafe)" in out
    code, out, err = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "sync")
    after = texts_of(site)
    # The call type follows the callee; the callee keeps its new name.
    assert after[COLOUR_TYPE] == pristine[COLOUR_TYPE].replace("\n  ask:\n", "\n  question:\n")
    assert "\n    name: question\n" in after[COLOUR]
    assert f"made 1 change in sync/{COLOUR_TYPE}, fixing 1 finding" in err
    assert "passes 'ask'" not in out
    # A second run has nothing more to fix.
    code, _, err = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "sync")
    assert err == ""
    assert texts_of(site) == after
