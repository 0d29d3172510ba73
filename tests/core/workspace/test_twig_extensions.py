"""A site's own Twig names, read from its modules' code (core/workspace/twig_extensions.py), and
R11's three outcomes on a copy of the real site (tests/corpus/atelier-cms) with
`{{ context_policy|nosuchfilter }}` planted in a prompt template and `{% nosuchtag %}` in a
data mapper's value: with no module code, a warning on each naming the settings line; with the
site's modules beside its config but defining neither, an error on each; with a custom module
defining both, nothing. Each finding at the name, in the file; the CLI says the same."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from flowdrop_lsp.core.workspace.twig_extensions import TwigExtensionScanner, read_site
from tests.support.builders import at
from tests.support.cli import run
from tests.support.config_site import CORPUS_CONFIG

SITE_FUNCTIONS = ("install_capabilities", "component_catalog", "site_destinations")
PAGES = "flowdrop_workflow.flowdrop_workflow.aincient_pages_agent.yml"
WEATHER = "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"


def module(
    root: Path,
    name: str,
    *,
    filters: tuple[str, ...] = (),
    functions: tuple[str, ...] = (),
    tests: tuple[str, ...] = (),
    tags: tuple[str, ...] = (),
    folder: str = "web/modules/custom",
) -> Path:
    """A Drupal module under `root/folder` whose Twig extension registers these names (each
    tag by a token parser class of its own)."""
    path = root / folder / name
    (path / "src" / "Twig").mkdir(parents=True)
    (path / f"{name}.info.yml").write_text(
        f"name: {name}\ntype: module\ncore_version_requirement: ^11\n"
    )
    (path / f"{name}.services.yml").write_text(
        "services:\n"
        f"  {name}.twig_extension:\n"
        f"    class: Drupal\\{name}\\Twig\\SiteExtension\n"
        "    tags:\n"
        "      - { name: twig.extension }\n"
    )
    parsers = []
    for index, tag in enumerate(tags):
        parser = f"Tag{index}TokenParser"
        parsers.append(f"new {parser}()")
        (path / "src" / "Twig" / f"{parser}.php").write_text(
            f"<?php\nnamespace Drupal\\{name}\\Twig;\nuse Twig\\TokenParser\\AbstractTokenParser;\n"
            f"class {parser} extends AbstractTokenParser {{\n"
            f"  public function getTag() {{\n    return '{tag}';\n  }}\n}}\n"
        )
    registered = {
        "getFilters": [f"new TwigFilter('{n}', [$this, 'x'])" for n in filters],
        "getFunctions": [f'new \\Twig\\TwigFunction("{n}", [$this, "x"])' for n in functions],
        "getTests": [f"new TwigTest('{n}', [$this, 'x'])" for n in tests],
        "getTokenParsers": parsers,
    }
    methods = "".join(
        f"  public function {method}(): array {{\n    return [{', '.join(items)}];\n  }}\n"
        for method, items in registered.items()
    )
    (path / "src" / "Twig" / "SiteExtension.php").write_text(
        f"<?php\nnamespace Drupal\\{name}\\Twig;\n\nuse Twig\\Extension\\AbstractExtension;\n"
        "use Twig\\TwigFilter;\nuse Twig\\TwigTest;\n\n"
        f"class SiteExtension extends AbstractExtension {{\n{methods}}}\n"
    )
    return path


def test_a_custom_module_s_filter_function_test_and_tag_are_read(tmp_path: Path) -> None:
    module(
        tmp_path,
        "atelier_twig",
        filters=("brand_colour",),
        functions=("component_catalog",),
        tests=("a brand",),
        tags=("capability",),
    )
    (tmp_path / "config" / "sync").mkdir(parents=True)
    names = TwigExtensionScanner().for_folder(tmp_path / "config" / "sync")
    assert names.filters == {"brand_colour"}
    assert names.functions == {"component_catalog"}
    assert names.tests == {"a brand"}
    assert names.tags == {"capability"}
    assert names.code_folders == (tmp_path / "web" / "modules",)
    assert names.complete


def test_submodules_and_contrib_count_tests_and_themes_do_not(tmp_path: Path) -> None:
    parent = module(tmp_path, "suite", functions=("suite_fn",), folder="modules/contrib")
    module(parent, "suite_extra", filters=("extra_filter",), folder="modules")
    module(parent, "suite_test", filters=("test_only",), folder="tests/modules")
    module(tmp_path, "a_theme", filters=("theme_filter",), folder="themes/custom")
    names = read_site(tmp_path)
    assert names.functions == {"suite_fn"}
    assert names.filters == {"extra_filter"}


def test_what_cannot_be_read_makes_the_names_incomplete(tmp_path: Path) -> None:
    path = module(tmp_path, "atelier_twig", functions=("component_catalog",))
    with (path / "atelier_twig.services.yml").open("a") as services:
        services.write(
            "  atelier_twig.missing:\n    class: Drupal\\atelier_twig\\Nowhere\n"
            "    tags:\n      - { name: twig.extension }\n"
        )
    names = read_site(tmp_path)
    assert names.functions == {"component_catalog"}
    assert names.unread == ("no file holds Drupal\\atelier_twig\\Nowhere",)
    assert not names.complete


def test_no_module_code_above_the_repository_s_root(tmp_path: Path) -> None:
    module(tmp_path, "outside", functions=("outside_fn",))
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "config" / "sync").mkdir(parents=True)
    names = TwigExtensionScanner().for_folder(tmp_path / "repo" / "config" / "sync")
    assert names.code_folders == ()
    assert not names.complete


# ----- R11 on a copy of the real site ----------------------------------------------------------


def planted_site(root: Path) -> Path:
    """A copy of the real site's config with the two unknown names planted; its config folder."""
    config = root / "config" / "sync"
    shutil.copytree(CORPUS_CONFIG, config)
    pages = config / PAGES
    text = pages.read_text(encoding="utf-8")
    assert text.count("{{ context_policy }}") == 1
    pages.write_text(text.replace("{{ context_policy }}", "{{ context_policy|nosuchfilter }}"))
    weather = config / WEATHER
    text = weather.read_text(encoding="utf-8")
    old = 'value: \'{{ (q|split(",")|first|trim)'
    if old not in text:
        old = "{{ (q|split(',')|first|trim)"
    assert text.count(old) == 1, old
    weather.write_text(text.replace(old, "{% nosuchtag %}" + old, 1))
    return config


def r11_findings(config: Path, name: str) -> tuple[str, list[Finding]]:
    path = config / name
    settings = SettingsResolver.for_check(None, config).for_file(path)
    text = path.read_text(encoding="utf-8")
    return text, [f for f in analyze(text, settings, syntax="yaml").findings if f.code == "R11"]


def planted_findings(config: Path) -> list[tuple[str, str, str]]:
    """(name at the span, severity, locator code) of the R11 findings on the planted names."""
    found = []
    for name in (PAGES, WEATHER):
        text, findings = r11_findings(config, name)
        for finding in findings:
            written = at(text, finding.span)
            if written in ("nosuchfilter", "nosuchtag"):
                found.append((written, finding.severity.value, finding.locator_code or ""))
    return sorted(found)


def test_no_site_code_the_planted_names_are_warnings_naming_the_setting(tmp_path: Path) -> None:
    config = planted_site(tmp_path)
    assert planted_findings(config) == [
        ("nosuchfilter", "warning", "R11_UNKNOWN_TWIG_NAME"),
        ("nosuchtag", "warning", "R11_UNKNOWN_TWIG_NAME"),
    ]
    _, findings = r11_findings(config, WEATHER)
    (tag,) = findings
    assert '`extend-twig-tags = ["nosuchtag"]` in flowdrop-lsp.toml' in tag.message


def test_site_modules_present_the_planted_names_are_errors(tmp_path: Path) -> None:
    config = planted_site(tmp_path)
    module(tmp_path, "atelier_twig", functions=SITE_FUNCTIONS)
    assert planted_findings(config) == [
        ("nosuchfilter", "error", "R11_EXPRESSION_INVALID"),
        ("nosuchtag", "error", "R11_EXPRESSION_INVALID"),
    ]
    _, findings = r11_findings(config, PAGES)
    (error,) = findings  # the site's own functions are known: read from its module
    assert "unknown filter 'nosuchfilter'" in error.message
    assert str(tmp_path / "web" / "modules") in error.message
    assert '`extend-twig-filters = ["nosuchfilter"]`' in error.message


def test_a_custom_module_defining_them_silences_both(tmp_path: Path) -> None:
    config = planted_site(tmp_path)
    module(
        tmp_path,
        "atelier_twig",
        filters=("nosuchfilter",),
        functions=SITE_FUNCTIONS,
        tags=("nosuchtag",),
    )
    for name in (PAGES, WEATHER):
        assert r11_findings(config, name)[1] == []


def test_the_settings_decide_over_what_the_site_holds(tmp_path: Path) -> None:
    config = planted_site(tmp_path)
    module(tmp_path, "atelier_twig", functions=SITE_FUNCTIONS)
    (tmp_path / "flowdrop-lsp.toml").write_text("twig-extensions-complete = false\n")
    assert [severity for _, severity, _ in planted_findings(config)] == ["warning", "warning"]
    (tmp_path / "flowdrop-lsp.toml").write_text(
        'twig-extensions-complete = false\nextend-twig-filters = ["nosuchfilter"]\n'
    )
    assert planted_findings(config) == [("nosuchtag", "warning", "R11_UNKNOWN_TWIG_NAME")]


def test_with_no_module_code_true_makes_them_errors(tmp_path: Path) -> None:
    config = planted_site(tmp_path)
    (tmp_path / "flowdrop-lsp.toml").write_text(
        "twig-extensions-complete = true\n"
        f"extend-twig-functions = {json.dumps(list(SITE_FUNCTIONS))}\n"
    )
    assert [severity for _, severity, _ in planted_findings(config)] == ["error", "error"]


@pytest.mark.parametrize("defined", [False, True])
def test_check_reports_them_at_the_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], defined: bool
) -> None:
    config = planted_site(tmp_path)
    names = {"filters": ("nosuchfilter",), "tags": ("nosuchtag",)} if defined else {}
    module(tmp_path, "atelier_twig", functions=SITE_FUNCTIONS, **names)
    code, out, _ = run(capsys, "--no-cache", "--color", "never", str(config))
    r11 = re.findall(r"^(\S+?):(\d+):(\d+): (\w+) R11 ", out, re.MULTILINE)
    if defined:
        assert (code, r11) == (0, [])
        return
    assert code == 1
    texts = {
        name: (config / name).read_text(encoding="utf-8").splitlines() for name in (PAGES, WEATHER)
    }
    written = sorted(
        (
            texts[Path(path).name][int(row) - 1][int(column) - 1 :].split("|")[0].split(" ")[0],
            severity,
        )
        for path, row, column, severity in r11
    )
    assert written == [("nosuchfilter", "error"), ("nosuchtag", "error")]


# ----- the replay of an unchanged check -------------------------------------------------------


def test_the_replay_names_the_site_code_as_site_files_does() -> None:
    from flowdrop_lsp.cli import replay
    from flowdrop_lsp.core.config import site_files

    assert replay.SITE_CODE == (site_files.WEB_ROOTS, site_files.CODE_FOLDERS)


def test_a_changed_module_is_no_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`check config/sync` recorded, then the module beside it changes: a run of its own."""
    config = planted_site(tmp_path)
    monkeypatch.chdir(tmp_path)
    path = module(tmp_path, "atelier_twig", functions=SITE_FUNCTIONS)
    past = time.time() - 100
    for file in tmp_path.rglob("*"):
        os.utime(file, (past, past))
    first = run(capsys, "--color", "never", str(config.relative_to(tmp_path)))
    assert first == run(capsys, "--color", "never", str(config.relative_to(tmp_path)))
    extension = path / "src" / "Twig" / "SiteExtension.php"
    text = extension.read_text().replace(
        "getFilters(): array {\n    return [",
        "getFilters(): array {\n    return [new TwigFilter('nosuchfilter', 'x')",
    )
    extension.write_text(text)
    os.utime(extension, (past + 50, past + 50))
    second = run(capsys, "--color", "never", str(config.relative_to(tmp_path)))
    assert first[0] == 1 and "nosuchfilter" in first[1]
    assert "unknown filter 'nosuchfilter'" not in second[1]


# ----- the server: a services file changed on disk --------------------------------------------


def test_a_services_file_changed_re_reads_the_sites_twig_names(tmp_path: Path) -> None:
    from flowdrop_lsp.core.workspace.host import Host

    config = planted_site(tmp_path)
    module(tmp_path, "atelier_twig", functions=SITE_FUNCTIONS)
    host = Host(SettingsResolver(report=lambda _problem: None))
    pages = config / PAGES
    assert "nosuchfilter" not in host.resolver.for_file(pages).twig_filters
    other = module(tmp_path, "atelier_more", filters=("nosuchfilter",))
    # A PHP file alone is not watched: the names read stand until the settings are re-read…
    assert "nosuchfilter" not in host.resolver.for_file(pages).twig_filters
    # …which a services file changing on disk does, as a project settings file.
    changes = host.disk_changed(other / "atelier_more.services.yml")
    assert changes.settings_changed
    assert "nosuchfilter" in host.resolver.for_file(pages).twig_filters
