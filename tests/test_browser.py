"""The real-browser harness (tests/browser.py, issue 28 item 7): console errors and uncaught
exceptions fail a test unless it expects them, key presses reach the page, screenshots are saved,
and the tests that need Chromium skip without it, or fail under KH_REQUIRE_BROWSER=1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from browser import ConsoleErrors, serve_directory

TESTS = Path(__file__).resolve().parent

ERROR_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>error page</title></head>
<body><p id="status">loaded</p>
<script>console.error("planted failure", 42);</script>
</body></html>
"""

THROWING_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>throwing page</title></head>
<body><p id="status">loaded</p>
<script>setTimeout(() => { throw new TypeError("planted exception"); }, 0);</script>
</body></html>
"""

COUNTER_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>counter</title>
<style>body { font: 24px sans-serif; margin: 2em; }</style></head>
<body><p>step <span id="step">0</span> of 10</p>
<script>
const step = document.getElementById("step");
document.addEventListener("keydown", (e) => {
  const n = Number(step.textContent);
  if (e.key === "ArrowRight" && n < 10) step.textContent = String(n + 1);
  if (e.key === "ArrowLeft" && n > 0) step.textContent = String(n - 1);
});
</script></body></html>
"""

CLEAN_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>clean</title></head>
<body><p id="status">fine</p><script>console.log("not an error"); console.warn("nor this");</script>
</body></html>
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_console_error_is_reported(browser, tmp_path):
    browser.open(write(tmp_path, "error.html", ERROR_PAGE))
    assert browser.text("#status") == "loaded"
    errors = browser.errors()
    assert len(errors) == 1
    assert errors[0].source == "console-api"
    assert '"planted failure" 42' in errors[0].text
    with pytest.raises(ConsoleErrors, match="planted failure"):
        browser.check()
    browser.expect_errors("planted failure")  # declared: the fixture does not fail this test
    assert browser.errors() == []
    browser.check()


def test_uncaught_exception_is_reported(browser, tmp_path):
    browser.open(write(tmp_path, "throw.html", THROWING_PAGE))
    browser.wait_for("#status")
    deadline_errors = []
    for _ in range(100):  # the exception is thrown from a timer, after the load
        deadline_errors = browser.errors()
        if deadline_errors:
            break
        browser.js("return 0;")
    assert [e.source for e in deadline_errors] == ["javascript"]
    assert "Uncaught TypeError: planted exception" in deadline_errors[0].text
    browser.expect_errors(r"TypeError: planted exception")


def test_clean_page_has_no_errors_but_logs_are_kept(browser, tmp_path):
    browser.open(write(tmp_path, "clean.html", CLEAN_PAGE))
    assert browser.title == "clean"
    assert browser.errors() == []
    levels = sorted(m.level for m in browser.console())
    assert levels == ["INFO", "WARNING"]


def test_arrow_right_updates_the_counter(browser, tmp_path):
    browser.open(write(tmp_path, "counter.html", COUNTER_PAGE), wait_for="#step")
    assert browser.text("#step") == "0"
    browser.press("ArrowRight")
    assert browser.text("#step") == "1"
    browser.press("ArrowRight", times=3)
    assert browser.text("#step") == "4"
    browser.press("ArrowLeft")
    browser.wait_text("#step", "3")
    assert browser.js("return Number(document.getElementById('step').textContent) * 2;") == 6
    shot = browser.screenshot("after-keys")
    assert shot.name == "test_browser__test_arrow_right_updates_the_counter__after-keys.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_missing_element_names_the_selector(browser, tmp_path):
    browser.open(write(tmp_path, "clean.html", CLEAN_PAGE))
    assert browser.count("#nothing") == 0
    with pytest.raises(AssertionError, match="no element matches '#nothing'"):
        browser.text("#nothing")
    with pytest.raises(AssertionError, match="never read 'other'"):
        browser.wait_text("#status", "other", timeout=0.2)


def test_served_directory_allows_fetch(browser, tmp_path):
    """A page that fetches a sibling file, served over HTTP (file:// would refuse the fetch)."""
    write(tmp_path, "data.json", '{"cell": "0.537"}')
    write(
        tmp_path,
        "index.html",
        '<!doctype html><meta charset="utf-8"><p id="cell">…</p><script>'
        'fetch("data.json").then(r => r.json()).then(d => '
        '{ document.getElementById("cell").textContent = d.cell; });</script>',
    )
    with serve_directory(tmp_path) as base:
        browser.open(base + "index.html")
        browser.wait_text("#cell", "0.537")


# -- the fixture's verdicts, seen from a separate pytest run ------------------------------------

INNER_CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from browser import browser, browser_driver, pytest_runtest_call  # noqa: F401
"""

INNER_TESTS = f"""
from pathlib import Path

ERROR_PAGE = {ERROR_PAGE!r}


def page(tmp_path):
    path = tmp_path / "error.html"
    path.write_text(ERROR_PAGE, encoding="utf-8")
    return path


def test_unexpected_error(browser, tmp_path):
    browser.open(page(tmp_path))
    assert browser.text("#status") == "loaded"   # the body passes; the fixture fails the test


def test_expected_error(browser, tmp_path):
    browser.expect_errors("planted failure")
    browser.open(page(tmp_path))
"""


def run_inner(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    work = tmp_path / "inner"
    work.mkdir(parents=True)
    (work / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (work / "conftest.py").write_text(INNER_CONFTEST, encoding="utf-8")
    (work / "test_inner.py").write_text(INNER_TESTS, encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if k != "KH_REQUIRE_BROWSER"}
    environ["KH_TEST_ARTIFACTS"] = str(tmp_path / "artifacts")
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", str(work)],
        cwd=work,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_unexpected_console_error_fails_the_test(browser, tmp_path):
    """The fixture itself turns a console error into a failing test (and saves screenshots)."""
    del browser  # only here so this test needs (and skips without) Chromium
    run = run_inner(tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 failed, 1 passed" in out, out
    assert "FAILED test_inner.py::test_unexpected_error" in out, out
    assert "1 console error(s) in the browser" in out and "planted failure" in out, out
    shots = sorted(p.name for p in (tmp_path / "artifacts" / "screenshots").iterdir())
    assert shots == [
        "test_inner__test_expected_error.png",
        "test_inner__test_unexpected_error.png",
    ]


def test_without_chromium_skips_or_fails_when_required(tmp_path):
    """No browser: skipped with the reason, or failed when KH_REQUIRE_BROWSER=1 (CI)."""
    missing = str(tmp_path / "no-such-chromium")
    skipped = run_inner(tmp_path / "a", KH_CHROMIUM=missing)
    out = skipped.stdout + skipped.stderr
    assert skipped.returncode == 0, out
    assert "2 skipped" in out and "is not an executable" in out, out
    required = run_inner(tmp_path / "b", KH_CHROMIUM=missing, KH_REQUIRE_BROWSER="1")
    out = required.stdout + required.stderr
    assert required.returncode == 1, out
    assert "2 errors" in out, out
    assert "KH_REQUIRE_BROWSER=1 but the browser tests cannot run" in out, out
