"""`flowdrop-lsp check` on a copy of the real site with mistakes planted in its expressions: each
printed at its 1-based line and code-point column inside the YAML string (after emoji and CJK
text, and in a CRLF file), the misspelt filter fixed by `--fix`, and the site clean again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.site import WORKFLOW_PREFIX, copy_site

WEATHER = WORKFLOW_PREFIX + "aincient_weather.yml"
PLAIN = "(q|split(',')|first|trim)|url_encode"


def _planted(site: Path, old: str, new: str, newline: str = "\n") -> Path:
    path = site / WEATHER
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_bytes(text.replace(old, new).replace("\n", newline).encode("utf-8"))
    return path


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_misspelt_filter_is_printed_at_its_column_and_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], newline: str
) -> None:
    site = copy_site(tmp_path)
    # Emoji and CJK before the mistake, in the same line: columns count code points.
    planted = "🌦️天気 " + PLAIN.replace("first", "frist")
    path = _planted(
        site,
        "https://geocoding-api.open-meteo.com/v1/search?name={{ " + PLAIN,
        "https://geocoding-api.open-meteo.com/v1/search?name={{ " + planted,
        newline,
    )
    line_text = next(
        (number, line)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "frist" in line
    )
    number, line = line_text
    code, out, _ = run(capsys, str(site), "--no-cache")
    assert code == 1
    expected = f"{WEATHER}:{number}:{line.index('frist') + 1}: error R11 "
    (printed,) = [row for row in out.splitlines() if " error R11 " in row]
    assert printed.endswith(
        "Twig template in the value of dynamic output 'url_full' of \"Data Mapper\" "
        "(data_mapper.1) does not compile: unknown filter 'frist' (did you mean 'first'?)"
    )
    assert printed.split(str(site) + "/")[-1].startswith(expected)
    code, out, _ = run(capsys, str(site), "--no-cache", "--fix")
    assert "frist" not in path.read_text(encoding="utf-8")
    assert path.read_bytes().count(b"\r\n") == (
        path.read_bytes().count(b"\n") if newline == "\r\n" else 0
    )
    code, out, _ = run(capsys, str(site), "--no-cache")
    # (What remains of R11 are the site's own undeclared functions, warnings elsewhere.)
    assert "frist" not in out and " error R11 " not in out
