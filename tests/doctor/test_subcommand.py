"""`flowdrop-lsp doctor` as people start it: its options, the two lines it prints first (the
real bound port for `--port 0`), and a clean stop on SIGTERM or Ctrl-C. Started as a
subprocess through the real entry point, with the tests' fake service in place of the core's
(tests/support/doctor_launch.py); one test starts it with the core's own service."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from flowdrop_lsp.entry import main
from tests.support.builders import CORPUS_CONFIG, CORPUS_JSON, REPO
from tests.support.doctor_front import draft

FIRST_LINE = "flowdrop-lsp doctor listening on http://"


def start(*args: str, real: bool = False) -> subprocess.Popen[str]:
    runner = ["-m", "flowdrop_lsp"] if real else ["-m", "tests.support.doctor_launch"]
    return subprocess.Popen(
        [sys.executable, *runner, "doctor", *args],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": ""},  # the flush is the program's own
    )


def read_line(process: subprocess.Popen[str], timeout: float = 60) -> str:
    """The next line of stdout, or a failure after `timeout` (never a hung test)."""
    assert process.stdout is not None
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(process.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout)
    if not got:
        process.kill()
        pytest.fail(f"no line within {timeout} s; stderr: {process.communicate()[1]}")
    return got[0]


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate()


def post(url: str, body: object) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_the_first_line_names_the_bound_port_and_a_signal_stops_it(
    processes: list[subprocess.Popen[str]], tmp_path: Path, stop: signal.Signals
) -> None:
    site = tmp_path / "sync"
    site.mkdir()
    process = start("--port", "0", str(site))
    processes.append(process)
    first = read_line(process)
    assert first.startswith(FIRST_LINE) and first.endswith("\n")
    url = first[len("flowdrop-lsp doctor listening on ") :].strip()
    host, _, port = url.removeprefix("http://").rpartition(":")
    assert host == "127.0.0.1" and int(port) > 0
    second = read_line(process)
    assert second.startswith("site sync: 2 workflows (fake); ")
    assert "POST /workflow/{id}/diagnose" in second and "POST /workflow/{id}/remedy" in second
    assert "/api/flowdrop" in second
    status, body = post(f"{url}/api/flowdrop/workflow/research/diagnose", draft("live"))
    assert status == 200
    assert body["data"]["problems"][0]["id"] == "p-live"  # type: ignore[index]
    process.send_signal(stop)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert out == "", "stdout holds the two lines only"
    assert "Traceback" not in err


def test_the_token_file_and_allowed_origins_reach_the_server(
    processes: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("  tok-123\n", encoding="utf-8")
    process = start(
        "--port", "0", "--token-file", str(token_file), "--allow-origin", "http://localhost:5173/",
        str(tmp_path),
    )  # fmt: skip
    processes.append(process)
    url = read_line(process).split(" on ", 1)[1].strip()
    status, body = post(f"{url}/workflow/w/diagnose", draft())
    assert status == 401 and body["error_code"] == "UNAUTHORIZED"
    request = urllib.request.Request(
        f"{url}/workflow/w/diagnose",
        method="OPTIONS",
        headers={"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 204
        assert response.headers["Access-Control-Allow-Origin"] == "http://localhost:5173"
    request = urllib.request.Request(
        f"{url}/workflow/w/diagnose",
        data=json.dumps(draft()).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer tok-123"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200


def test_a_taken_port_is_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = start("--port", str(port), str(tmp_path))
        out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert out == ""
    assert f"cannot listen on 127.0.0.1:{port}" in err


def test_a_site_that_cannot_be_read_is_exit_2(tmp_path: Path) -> None:
    site = tmp_path / "unreadable"
    site.mkdir()
    process = start("--port", "0", str(site))
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert out == ""
    assert "cannot read the site" in err and "this site cannot be read" in err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--host", "0.0.0.0"], "--token-file"),
        (["--host", "192.168.1.10"], "--token-file"),
        (["--host", "localhost"], "--token-file"),
        (["--port", "70000"], "--port"),
        (["--allow-origin", "https://cms.example.org/editor"], "--allow-origin"),
        (["--allow-origin", "*"], "--allow-origin"),
        (["--allow-origin", "cms.example.org"], "--allow-origin"),
    ],
)
def test_options_that_cannot_run_are_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    assert main(["doctor", *args, str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("flowdrop-lsp doctor: ") and said in captured.err


@pytest.mark.parametrize("content", ["", "  \n\t\n", "two words", "caf\u00e9"])
def test_a_token_file_without_a_usable_token_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(content, encoding="utf-8")
    assert main(["doctor", "--token-file", str(token_file), str(tmp_path)]) == 2
    assert "--token-file" in capsys.readouterr().err


def test_a_missing_token_file_or_site_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor", "--token-file", str(tmp_path / "none"), str(tmp_path)]) == 2
    assert "cannot read it" in capsys.readouterr().err
    assert main(["doctor", str(tmp_path / "nowhere")]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_the_real_service_on_the_corpus_site(processes: list[subprocess.Popen[str]]) -> None:
    process = start("--port", "0", str(CORPUS_CONFIG), real=True)
    processes.append(process)
    first = read_line(process, timeout=120)
    assert first.startswith(FIRST_LINE)
    url = first.split(" on ", 1)[1].strip()
    read_line(process)
    workflow = json.loads((CORPUS_JSON / "aincient_weather.flowdrop.json")
                          .read_text(encoding="utf-8"))  # fmt: skip
    status, body = post(f"{url}/workflow/{workflow['id']}/diagnose", workflow)
    assert status == 200 and body["success"] is True
    assert isinstance(body["data"]["problems"], list)  # type: ignore[index]
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
