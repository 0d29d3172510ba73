"""The shipped Emacs + eglot recipe (editors/emacs/flowdrop-lsp.el) in real Emacs 28 with eglot
1.9 (Debian `emacs-nox`, `elpa-eglot`), driven in batch mode: the CMP-9 errors of a JSON and of
a Drupal YAML workflow arrive in flymake with their messages, lines and columns (also after emoji
and CJK text: eglot counts UTF-16 code units, as the server does by default); package.json gets
no server; a missing server is one warning.

Without the editor the tests are skipped with a reason naming the Debian packages; `make
editors-deps` (run by `.ci/run`) installs them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.editors import (
    EMOJI_CJK_PREFIX,
    EMOJI_CJK_WORKFLOW,
    EXAMPLE,
    NON_WORKFLOWS,
    REPO,
    assert_no_server_on_system_path,
    assert_one_missing_server_warning,
    copy_export,
    copy_workflows,
    line_of,
    run_driven,
    venv_bin,
    write_non_workflows,
)

SHIPPED = REPO / "editors" / "emacs"
TIMEOUT_S = 90  # hard limit per Emacs run; a passing run takes a few seconds
MESSAGE = (
    'flowdrop [CMP-9]: tool name "web_search" also used by "{other}" ({node}) at "{consumer}"; '
    "the runtime would call only one of them"
)

EMACS = shutil.which("emacs")


def _has_eglot() -> bool:
    if EMACS is None:
        return False
    try:
        probe = subprocess.run(
            [EMACS, "--batch", "-q", "--eval", "(kill-emacs (if (require 'eglot nil t) 0 1))"],
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not _has_eglot(),
    reason="needs Emacs 28 and eglot: apt-get install emacs-nox elpa-eglot (or `make editors-deps`)",
)

# Visits each file of the params in turn, lets the command loop's post-command-hook run (where
# eglot-ensure connects), waits for the expected number of flymake diagnostics (or 1.5 s when
# none is expected), applies the preferred quick fix when asked (and waits for the diagnostics to
# go), and writes the diagnostics, the buffer text, the major mode, whether eglot manages the
# buffer and the *Warnings* buffer as JSON. `-q` (not `-Q`): Debian's site-start makes the elpa packages loadable.
DRIVER = r"""
(require 'json)
(let* ((params (json-read-file (getenv "FLOWDROP_EMACS_PARAMS")))
       (results nil))
  (add-to-list 'load-path (alist-get 'load_path params))
  (when (alist-get 'executable params)
    (setq flowdrop-lsp-executable (alist-get 'executable params)))
  (require 'flowdrop-lsp)
  (condition-case err
      (progn
        (seq-doseq (file (alist-get 'files params))
          (find-file (alist-get 'path file))
          (run-hooks 'post-command-hook)
          (let* ((expect (alist-get 'expect file))
                 (deadline (+ (float-time) (if (> expect 0) (alist-get 'timeout_s params) 1.5))))
            (while (and (< (float-time) deadline)
                        (or (= expect 0) (< (length (flymake-diagnostics)) expect)))
              (accept-process-output nil 0.05)))
          (when (eq (alist-get 'fix file) t)
            ;; M-x eglot-code-actions RET at the first error's label, then RET at the prompt
            ;; (stdin in batch mode) takes the default: the preferred fix.
            (goto-char (apply #'min (mapcar #'flymake-diagnostic-beg (flymake-diagnostics))))
            (let ((last-nonmenu-event ?\r))
              (eglot-code-actions (point) nil nil t))
            ;; After a change, eglot sends didChange and flymake re-runs its backends from idle
            ;; timers, which never fire in batch mode: run them, as a pause in typing would.
            (let ((deadline (+ (float-time) (alist-get 'timeout_s params))))
              (while (and (< (float-time) deadline) (flymake-diagnostics))
                (accept-process-output nil 0.2)
                (mapc #'timer-event-handler (copy-sequence timer-idle-list)))))
          (push `((path . ,buffer-file-name)
                  (mode . ,(symbol-name major-mode))
                  (eglot . ,(if (eglot-current-server) t :json-false))
                  (diagnostics
                   . ,(vconcat
                       (mapcar
                        (lambda (d)
                          (let ((beg (flymake-diagnostic-beg d)))
                            `((line . ,(line-number-at-pos beg))
                              (column . ,(save-excursion
                                           (goto-char beg) (- beg (line-beginning-position))))
                              (type . ,(symbol-name (flymake-diagnostic-type d)))
                              (text . ,(flymake-diagnostic-text d)))))
                        (flymake-diagnostics))))
                  (text . ,(buffer-substring-no-properties (point-min) (point-max))))
                results))
        (let ((warnings (get-buffer "*Warnings*")))
          (with-temp-file (alist-get 'out params)
            (insert (json-encode
                     `((files . ,(vconcat (nreverse results)))
                       (warnings . ,(if warnings
                                        (with-current-buffer warnings (buffer-string))
                                      ""))))))))
    (error (message "FAIL: %S" err) (kill-emacs 1)))
  (ignore-errors (eglot-shutdown-all))
  (kill-emacs 0))
"""


def _run_emacs(tmp_path: Path, files: list[dict[str, object]], **params: object) -> dict:
    assert EMACS is not None
    return run_driven(
        tmp_path,
        [EMACS, "--batch", "-q", "-l"],
        DRIVER,
        "driver.el",
        "FLOWDROP_EMACS_PARAMS",
        {"load_path": str(SHIPPED), "timeout_s": 20, "files": files, **params},
        TIMEOUT_S,
        stdin="\n\n",  # what the minibuffer reads in batch mode: RET takes the default
    )


def _summary(diagnostics: list[dict]) -> list[tuple[int, int, str, str]]:
    return sorted((d["line"], d["column"], d["type"], d["text"]) for d in diagnostics)


def test_emacs_eglot_shows_cmp9_in_json_and_yaml_workflows(tmp_path: Path) -> None:
    project = tmp_path / "project"
    workflow, drupal = copy_workflows(project)
    (project / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    package = project / "package.json"  # plain JSON: no server
    package.write_text(NON_WORKFLOWS["package.json"], encoding="utf-8")

    result = _run_emacs(
        tmp_path,
        [
            {"path": str(workflow), "expect": 2},
            {"path": str(drupal), "expect": 2},
            {"path": str(package), "expect": 0},
        ],
        executable=venv_bin("flowdrop-lsp"),
    )
    json_file, yaml_file, package_file = result["files"]

    text = workflow.read_text(encoding="utf-8")
    assert json_file["mode"] == "flowdrop-json-mode" and json_file["eglot"] is True
    consumer = "Research Agent"
    # Columns are 0-based character offsets; these lines are ASCII.
    assert _summary(json_file["diagnostics"]) == [
        (
            line_of(text, '"label": "Web Search"')[0],
            25,
            "eglot-error",
            MESSAGE.format(other="web-search", node="http_request.2", consumer=consumer),
        ),
        (
            line_of(text, '"label": "web-search"')[0],
            25,
            "eglot-error",
            MESSAGE.format(other="Web Search", node="http_request.1", consumer=consumer),
        ),
    ]

    text = drupal.read_text(encoding="utf-8")
    consumer = "Reason (agent step)"
    assert yaml_file["mode"] == "flowdrop-yaml-mode" and yaml_file["eglot"] is True
    assert _summary(yaml_file["diagnostics"]) == [
        (
            line_of(text, "label: 'Web Search 🔎'")[0],
            13,
            "eglot-error",
            MESSAGE.format(other="web-search", node="http_request.2", consumer=consumer),
        ),
        (
            line_of(text, "label: web-search")[0],
            13,
            "eglot-error",
            MESSAGE.format(other="Web Search 🔎", node="http_request.1", consumer=consumer),
        ),
    ]
    assert package_file["eglot"] is False and package_file["diagnostics"] == []
    assert "flowdrop-lsp" not in result["warnings"]


def test_emacs_eglot_starts_for_an_exported_workflow_like_the_cli(tmp_path: Path) -> None:
    """`exported.json` (the example under a name no glob selects) is a workflow to `flowdrop-lsp
    check` by content: it opens in flowdrop-json-mode, eglot starts and flymake shows the two
    CMP-9 errors. package.json, tsconfig.json and docker-compose.yml keep their usual modes and
    start no server."""
    project = tmp_path / "project"
    (project / "flowdrop-lsp.toml").parent.mkdir(parents=True)
    (project / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    exported = copy_export(project)
    others = write_non_workflows(project)
    result = _run_emacs(
        tmp_path,
        [{"path": str(exported), "expect": 2}, *({"path": str(p), "expect": 0} for p in others)],
        executable=venv_bin("flowdrop-lsp"),
    )
    exported_file, *other_files = result["files"]
    assert exported_file["mode"] == "flowdrop-json-mode" and exported_file["eglot"] is True
    assert [(d["type"], d["text"][:18]) for d in exported_file["diagnostics"]] == [
        ("eglot-error", "flowdrop [CMP-9]: ")
    ] * 2
    for other in other_files:
        assert not other["mode"].startswith("flowdrop"), other
        assert other["eglot"] is False and other["diagnostics"] == [], other
    assert "flowdrop-lsp" not in result["warnings"]


def test_emacs_eglot_code_action_applies_the_preferred_fix(tmp_path: Path) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    workflow = tmp_path / EXAMPLE.name
    shutil.copyfile(EXAMPLE, workflow)
    original = workflow.read_text(encoding="utf-8")
    result = _run_emacs(
        tmp_path,
        [{"path": str(workflow), "expect": 2, "fix": True}],
        executable=venv_bin("flowdrop-lsp"),
    )
    (fixed,) = result["files"]
    assert fixed["diagnostics"] == []
    # The first label ("Web Search") keeps its name: its preferred fix renames the other one.
    lnum, line = line_of(original, '"label": "web-search"')
    expected = original.split("\n")
    expected[lnum - 1] = line.replace('"web-search"', '"web-search 2"')
    assert fixed["text"] == "\n".join(expected)
    assert json.loads(fixed["text"])  # still JSON


def test_emacs_eglot_columns_after_emoji_and_cjk(tmp_path: Path) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    workflow = tmp_path / "emoji.flowdrop.json"
    workflow.write_text(EMOJI_CJK_WORKFLOW, encoding="utf-8")
    result = _run_emacs(
        tmp_path, [{"path": str(workflow), "expect": 2}], executable=venv_bin("flowdrop-lsp")
    )
    diagnostics = sorted(result["files"][0]["diagnostics"], key=lambda d: d["line"])
    assert [d["line"] for d in diagnostics] == [4, 5]
    # Emacs columns are characters: the emoji (2 UTF-16 units) and CJK text are one each.
    assert len(EMOJI_CJK_PREFIX) != len(EMOJI_CJK_PREFIX.encode("utf-16-le")) // 2
    assert diagnostics[0]["column"] == len(EMOJI_CJK_PREFIX)
    assert diagnostics[0]["text"] == MESSAGE.format(other="Web Search", node="t2", consumer="Agent")


def test_emacs_missing_server_is_one_warning(tmp_path: Path) -> None:
    assert_no_server_on_system_path()
    (tmp_path / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    first, second = tmp_path / "a.flowdrop.json", tmp_path / "b.flowdrop.json"
    shutil.copyfile(EXAMPLE, first)
    shutil.copyfile(EXAMPLE, second)
    result = _run_emacs(
        tmp_path, [{"path": str(first), "expect": 0}, {"path": str(second), "expect": 0}]
    )
    assert all(f["eglot"] is False for f in result["files"])
    assert_one_missing_server_warning(result["warnings"], tmp_path)
