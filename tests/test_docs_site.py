"""The documentation site (issue 28 item 6): ``mkdocs build --strict`` builds docs/ with the
README as its home page and an API reference generated from the docstrings; the build fails on a
broken link or anchor and on a public name the reference cannot find; the built pages open in a
real browser without a console error.

Needs the docs extra (mkdocs, mkdocs-material, mkdocstrings[python]): skipped without it, failed
under ``KH_REQUIRE_DOCS=1`` (scripts/test.sh). The browser tests also need Chromium
(tests/browser.py)."""

from __future__ import annotations

import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import ketharmad
import pytest
from browser import serve_directory

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
REFERENCE = DOCS / "reference"
DOCS_MODULES = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python", "yaml")
# public names the API reference does not document with a ::: block of their own
NOT_IN_REFERENCE = {"__version__"}


def docs_extra_missing() -> str | None:
    missing = []
    for name in DOCS_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            missing.append(name)
    return ", ".join(missing) or None


def need_docs_extra() -> None:
    missing = docs_extra_missing()
    if missing is None:
        return
    reason = f"the docs extra is not installed (missing: {missing}; pip install '.[docs]')"
    if os.environ.get("KH_REQUIRE_DOCS", "") not in ("", "0"):
        pytest.fail(f"KH_REQUIRE_DOCS=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def build(
    dest: Path, docs_dir: Path = DOCS, python_dir: Path = ROOT / "python"
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of mkdocs.yml into ``dest``, with the docs and the package
    source read from ``docs_dir`` and ``python_dir`` (copies, for the planted breakages)."""
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(docs_dir)
    config["hooks"] = [str(ROOT / h) for h in config["hooks"]]
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "mkdocstrings" in plugin:
            python = plugin["mkdocstrings"]["handlers"]["python"]
            python["paths"] = [str(python_dir)]
            python["options"]["extensions"] = [
                str(ROOT / e) for e in python["options"]["extensions"]
            ]
    dest.mkdir(parents=True, exist_ok=True)
    cfg = dest.parent / f"{dest.name}-mkdocs.yml"
    cfg.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(cfg), "-d", str(dest)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once per session with the strict build."""
    need_docs_extra()
    dest = tmp_path_factory.mktemp("docs-site") / "site"
    run = build(dest)
    assert run.returncode == 0, run.stdout + run.stderr
    return dest


def reference_names() -> list[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(REFERENCE.glob("*.md")))
    return re.findall(r"^::: ketharmad\.([A-Za-z_][A-Za-z0-9_]*)\s*$", text, re.MULTILINE)


def test_every_public_name_is_in_the_api_reference():
    names = reference_names()
    assert len(names) == len(set(names)), "a name documented twice"
    public = set(ketharmad.__all__) - NOT_IN_REFERENCE
    assert set(names) == public


def test_strict_build_writes_the_pages(site):
    assert (site / "index.html").is_file()
    home = (site / "index.html").read_text(encoding="utf-8")
    # the home page is the README, its docs/ links made relative to the site
    text = html.unescape(re.sub(r"<[^>]+>", "", home))
    assert "pip install . && ketharmad matchups --games-per-side 500 --seed 1" in text
    assert 'href="install/"' in home and 'href="docs/' not in home
    for page in ("install", "api", "testing", "reference/batches", "reference/lab"):
        assert (site / page / "index.html").is_file(), page
    batches = (site / "reference" / "batches" / "index.html").read_text(encoding="utf-8")
    assert 'id="ketharmad.simulate"' in batches
    assert "Play <code>games</code> bot games in parallel" in batches  # simulate's docstring
    # the docstrings' Sphinx roles (tools/griffe_roles.py): simulate's ":func:`parameters`" is a
    # link to parameters' entry; no role is left as text on any reference page
    assert re.search(r'href="#ketharmad\.parameters"><code>parameters\(\)</code></a>', batches)
    for page in (site / "reference").rglob("index.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r":(func|meth|class|mod|attr|data|exc):", text), page


def copy_docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    return docs


def test_strict_build_fails_on_a_broken_link(tmp_path):
    need_docs_extra()
    docs = copy_docs(tmp_path)
    with open(docs / "cli.md", "a", encoding="utf-8") as f:
        f.write("\nSee [the missing page](no_such_page.md) and [an anchor](api.md#no-such-part).\n")
    run = build(tmp_path / "site", docs_dir=docs)
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "contains a link 'no_such_page.md', but the target is not found" in out, out
    assert "does not contain an anchor '#no-such-part'" in out, out
    assert "Aborted with 2 warnings in strict mode" in out, out


def copy_package(tmp_path: Path) -> Path:
    """A copy of python/ketharmad's source (no extension, no data) under ``tmp_path/python``."""
    python = tmp_path / "python"
    shutil.copytree(
        ROOT / "python", python, ignore=shutil.ignore_patterns("*.so", "__pycache__", "data")
    )
    return python


def test_strict_build_fails_on_a_renamed_public_function(tmp_path):
    """``simulate`` renamed in the package (api.py and __init__.py), the reference unchanged."""
    need_docs_extra()
    python = copy_package(tmp_path)
    pkg = python / "ketharmad"
    api = (pkg / "api.py").read_text(encoding="utf-8")
    assert "\ndef simulate(" in api
    (pkg / "api.py").write_text(api.replace("\ndef simulate(", "\ndef run_batch("), "utf-8")
    init = (pkg / "__init__.py").read_text(encoding="utf-8")
    init = init.replace(" simulate\n", " run_batch\n", 1)  # the `from .api import ...` line
    init = init.replace('    "simulate",\n', '    "run_batch",\n')
    assert "run_batch\n" in init and "from .api import" in init and " simulate\n" not in init
    (pkg / "__init__.py").write_text(init, encoding="utf-8")
    run = build(tmp_path / "site", python_dir=python)
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "Could not collect 'ketharmad.simulate'" in out, out


def test_strict_build_fails_on_a_docstring_naming_what_does_not_exist(tmp_path):
    """A Sphinx role of a docstring whose target was renamed (``:func:`parameters``` in
    ``simulate``'s docstring, as if ``parameters`` were now ``parameter_table``)."""
    need_docs_extra()
    python = copy_package(tmp_path)
    api = python / "ketharmad" / "api.py"
    text = api.read_text(encoding="utf-8")
    assert text.count("see :func:`parameters`.") == 1
    api.write_text(text.replace("see :func:`parameters`.", "see :func:`parameter_table`."), "utf-8")
    run = build(tmp_path / "site", python_dir=python)
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert (
        ":func:`parameter_table` in the docstring of ketharmad.api.simulate names nothing that "
        "exists" in out
    ), out
    assert "Aborted with 1 warnings in strict mode" in out, out


@pytest.mark.parametrize(
    ("page", "heading"),
    [("", "ketharmad"), ("reference/batches/", "Batches and games")],
)
def test_site_page_opens_without_console_errors(browser, site, page, heading):
    with serve_directory(site) as base:
        browser.open(base + page, wait_for="article h1")
        assert browser.text("article h1").startswith(heading)
        if page:
            assert browser.text('[id="ketharmad.simulate"]').startswith("ketharmad.simulate")
            assert browser.count(".doc-function") > 10
        else:
            assert browser.count('a[href="install/"]') >= 1
        browser.screenshot("page", full_page=False)
        # the search index loads in a web worker: it must not fail either
        browser.press("/")
        browser.js("document.querySelector('input.md-search__input').value = 'simulat';")
        browser.press("e", css="input.md-search__input")
        browser.wait_for(".md-search-result__item", timeout=10)
        assert "simulate" in browser.text(".md-search-result__item").lower()
        browser.check()
