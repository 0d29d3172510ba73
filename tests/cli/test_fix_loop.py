"""`check --fix` / `--diff` fix until nothing changes (issue 29): on the real site one
`--fix --unsafe-fixes` removes the dead "Pick brand" branches and then the edges out of them,
and a second run finds nothing left to fix; `--diff` shows that converged result. The loop itself
(cli/fixing.py) against a stand-in host: passes until stable, the cap, a file it cannot write."""

from __future__ import annotations

import difflib
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.cli.fixing import Checked, fix_until_stable
from flowdrop_lsp.cli.report import Reporter
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.findings import Finding, Fix, Severity, TextEdit
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.core.workspace.checking import CheckedFile
from tests.support.cli import finding_lines, run, texts_of
from tests.support.site import WORKFLOW_PREFIX, copy_site

AGENTS = ("audit", "chrome", "image", "pages")


def test_one_fix_run_converges_on_the_real_site(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = texts_of(site)
    code, out, err = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "sync")
    assert code == 0
    # Each agent: the branch (pass 1), then the edge out of it (pass 2), both in this run.
    for agent in AGENTS:
        name = f"sync/{WORKFLOW_PREFIX}aincient_{agent}_agent.yml"
        assert f"made 2 changes in {name}, fixing 2 findings in 2 passes" in err
    assert "Pick brand" not in out  # no FD-UNKNOWN-PORT left for the next run
    assert "FD-UNKNOWN-PORT [*]" not in out
    # What is left: the weather workflow's unknown ports, fixes to choose from; the calls of
    # the site's own Twig functions, which no settings declare (nothing to fix).
    assert (
        sorted(line.split(": warning ")[1][:19] for line in finding_lines(out))
        == ["FD-UNKNOWN-PORT [?]"] * 3 + ["R11 Twig template i"] * 4
    )
    assert out.endswith(
        "7 warnings in 3 of 105 files\n"
        "[?] 3 have fixes to choose from: in your editor, or list them with --show-fixes\n"
    )
    after = texts_of(site)
    assert {name for name in before if before[name] != after[name]} == {
        f"{WORKFLOW_PREFIX}aincient_{agent}_agent.yml" for agent in AGENTS
    }
    # A second run has nothing more to fix, and changes nothing.
    code, out, err = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "sync")
    assert (code, err) == (0, "")
    assert texts_of(site) == after
    code, out, err = run(capsys, "--no-cache", "--diff", "--unsafe-fixes", "sync")
    assert (code, out, err) == (0, "", "flowdrop-lsp: nothing to fix\n")


def test_diff_shows_the_converged_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("fixed", "shown"):
        copy_site(tmp_path / name)
    monkeypatch.chdir(tmp_path / "shown")
    before = texts_of(tmp_path / "shown" / "sync")
    code, diff, _ = run(capsys, "--no-cache", "--diff", "--unsafe-fixes", "sync")
    assert code == 0
    assert texts_of(tmp_path / "shown" / "sync") == before  # --diff writes nothing
    monkeypatch.chdir(tmp_path / "fixed")
    run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "sync")
    after = texts_of(tmp_path / "fixed" / "sync")
    expected = "".join(
        "".join(
            difflib.unified_diff(
                before[name].splitlines(keepends=True),
                after[name].splitlines(keepends=True),
                f"sync/{name}",
                f"sync/{name}",
            )
        )
        for name in sorted(before)
        if before[name] != after[name]
    )
    assert diff == expected
    assert diff.count("-    sourceHandle: 'switch_gateway.1-output-Pick brand'\n") == 4


def test_show_fixes_lists_every_fix_under_its_finding(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weather = f"sync/{WORKFLOW_PREFIX}aincient_weather.yml"
    _, out, _ = run(capsys, "--no-cache", "--show-fixes", weather)
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if "names output port 'url'" in line)
    assert "FD-UNKNOWN-PORT [?] " in lines[first]
    assert lines[first + 1 : first + 4] == [
        "    fix: Connect to 'url_full' (unsafe)",
        "    fix: Connect to 'url_first' (unsafe)",
        "    fix: Remove the edge (unsafe)",
    ]
    assert out.endswith("[?] 3 have fixes to choose from: in your editor, listed above\n")
    pages = f"sync/{WORKFLOW_PREFIX}aincient_pages_agent.yml"
    _, out, _ = run(capsys, "--no-cache", "--show-fixes", pages)
    assert (
        '    fix: Remove the branch "Pick brand" (unsafe: --fix --unsafe-fixes applies it)\n' in out
    )
    _, out, _ = run(capsys, "--no-cache", "--show-fixes", "--unsafe-fixes", pages)
    assert '    fix: Remove the branch "Pick brand" (unsafe: --fix applies it)\n' in out


# ----- the loop against a stand-in host -------------------------------------------------------


class _Host:
    """Each 'a' of a file is a finding whose safe fix writes 'b' in its place; `more` adds an
    'a' after each fix (a fix that uncovers another, for ever). Only the first 'a' is reported,
    as a rule that sees one problem at a time would."""

    def __init__(self, more: bool = False) -> None:
        self.more = more
        self.refreshed = 0

    def findings(self, path: Any) -> tuple[Finding, ...]:
        text = self.text
        if "a" not in text:
            return ()
        at = text.index("a")
        new = "ba" if self.more else "b"
        edit = TextEdit(Span(at, at + 1), new)
        return (
            Finding(
                "X",
                Severity.ERROR,
                "an a",
                Span(at, at + 1),
                fixes=(Fix("b", (edit,), preferred=True),),
            ),
        )

    def refresh(self, checked: CheckedFile, text: str) -> CheckedFile:
        self.refreshed += 1
        self.text = text
        return replace(checked, text=text, data=text.encode())


def _slot(tmp_path: Path, host: _Host, text: str) -> Checked:
    path = tmp_path / "w.flowdrop.json"
    path.write_text(text, encoding="utf-8")
    host.text = text
    return Checked(
        path, "w.flowdrop.json", CheckedFile(path, text, text.encode(), Settings(), "json")
    )


def test_the_loop_fixes_until_a_pass_changes_nothing(tmp_path: Path) -> None:
    host = _Host()
    slot = _slot(tmp_path, host, "xaxax")
    result = fix_until_stable([slot], host, Reporter(None), write=True)  # type: ignore[arg-type]
    assert (result.passes, result.capped, result.failures) == (3, False, ())
    assert slot.file.text == (tmp_path / "w.flowdrop.json").read_text() == "xbxbx"
    assert (slot.edits, slot.fixed, slot.passes, slot.original) == (2, 2, 2, "xaxax")


def test_the_loop_stops_at_its_cap_and_says_so(tmp_path: Path) -> None:
    host = _Host(more=True)
    slot = _slot(tmp_path, host, "a")
    result = fix_until_stable([slot], host, Reporter(None), write=False, max_passes=4)  # type: ignore[arg-type]
    assert (result.passes, result.capped) == (4, True)
    assert slot.file.text == "bbbba"
    assert (tmp_path / "w.flowdrop.json").read_text() == "a"  # --diff writes nothing


def test_a_file_that_cannot_be_written_is_left_as_it_is(tmp_path: Path) -> None:
    host = _Host()
    slot = _slot(tmp_path, host, "aa")
    os.chmod(slot.walked, 0o444)
    result = fix_until_stable([slot], host, Reporter(None), write=True)  # type: ignore[arg-type]
    assert [f.message for f in result.failures] == [
        f"cannot fix w.flowdrop.json: {slot.walked} is read-only; not changed"
    ]
    assert (slot.file.text, slot.stuck, host.refreshed) == ("aa", True, 0)


def test_a_capped_run_that_leaves_findings_exits_1(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(fix_until_stable, "__kwdefaults__", {"max_passes": 1})
    # One pass removes the branches; the edges out of them are still to fix: warnings only,
    # yet the run did not finish its work.
    code, out, err = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "sync")
    assert "flowdrop-lsp: fixes still change files after 1 pass; stopped there" in err
    assert out.count("FD-UNKNOWN-PORT [*] edge from 'switch_gateway.1'") == 4
    assert code == 1
    code, _, err = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "--exit-zero", "sync")
    assert code == 0 and "stopped there" not in err  # the next run finishes


class _SiteHost:
    """Two files of a site: 'b.json' gets a finding (an 'x' to write as 'y') only once
    'a.json' no longer holds 'a', as a cross-file finding follows another file's fix."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}

    def findings(self, path: Any) -> tuple[Finding, ...]:
        name = Path(path).name
        text, wrong, right = self.texts[name], *(("a", "b") if name == "a.json" else ("x", "y"))
        if wrong not in text or (name == "b.json" and "a" in self.texts["a.json"]):
            return ()
        at = text.index(wrong)
        edit = TextEdit(Span(at, at + 1), right)
        fix = Fix(right, (edit,), preferred=True)
        return (Finding("X", Severity.ERROR, wrong, Span(at, at + 1), fixes=(fix,)),)

    def refresh(self, checked: CheckedFile, text: str) -> CheckedFile:
        self.texts[checked.path.name] = text
        return replace(checked, text=text, data=text.encode())


def test_a_fix_in_one_file_is_seen_by_the_next_pass_of_another(tmp_path: Path) -> None:
    host = _SiteHost()
    slots = []
    for name, text in (("b.json", "x"), ("a.json", "a")):  # b first: it waits for a's fix
        host.texts[name] = text
        (tmp_path / name).write_text(text)
        file = CheckedFile(tmp_path / name, text, text.encode(), Settings(), "json")
        slots.append(Checked(tmp_path / name, name, file))
    result = fix_until_stable(slots, host, Reporter(None), write=True)  # type: ignore[arg-type]
    assert (result.passes, result.capped) == (3, False)
    assert [(tmp_path / n).read_text() for n in ("a.json", "b.json")] == ["b", "y"]
