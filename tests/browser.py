"""Real-browser tests (issue 28 item 7): headless Chromium driven through Selenium.

A test that takes the ``browser`` fixture gets a :class:`Browser`: it opens a local HTML file (or
a URL), reads elements' text, runs JavaScript, presses keys and takes screenshots. Every console
error and uncaught exception of the page is collected; when the test ends, the fixture saves a
screenshot to ``test-artifacts/screenshots/<module>__<test>.png``, and the test fails if the page
logged any error it did not declare with :meth:`Browser.expect_errors`. tests/conftest.py imports
the fixtures and the ``pytest_runtest_call`` hook from here.

The browser is Debian's ``chromium`` with ``chromium-driver`` (``apt-get install chromium
chromium-driver``; ``scripts/test.sh`` installs them where missing), or the programs named by
``KH_CHROMIUM`` and ``KH_CHROMEDRIVER``. It starts once per test session (about 0.6 s) and each
test starts from a blank page. Without it (or without Selenium, in the ``test`` extra) the tests
that take the fixture are skipped, and fail when ``KH_REQUIRE_BROWSER=1`` (set by
``scripts/test.sh``). See docs/testing.md.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIRE_ENV = "KH_REQUIRE_BROWSER"
ARTIFACTS_ENV = "KH_TEST_ARTIFACTS"
WINDOW = (1280, 900)  # the viewport every test starts with
# the most a full-page screenshot takes of a very long page (CSS pixels)
MAX_SCREENSHOT_HEIGHT = 8000

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DRIVER_NAMES = ("chromedriver",)
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-extensions",
    "--disable-background-networking",
    "--no-first-run",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--lang=en-US",
)

# DOM key names (KeyboardEvent.key) to Selenium's key codes; any other one-character string is
# typed as it is.
_KEYS = {
    "ArrowRight": "ARROW_RIGHT",
    "ArrowLeft": "ARROW_LEFT",
    "ArrowUp": "ARROW_UP",
    "ArrowDown": "ARROW_DOWN",
    "Enter": "ENTER",
    "Escape": "ESCAPE",
    "Tab": "TAB",
    "Backspace": "BACKSPACE",
    "Delete": "DELETE",
    "Home": "HOME",
    "End": "END",
    "PageUp": "PAGE_UP",
    "PageDown": "PAGE_DOWN",
    "Space": "SPACE",
}


class BrowserUnavailable(RuntimeError):
    """No headless Chromium (or its driver, or Selenium) to run the browser tests with."""


class ConsoleErrors(AssertionError):
    """The page logged console errors or threw uncaught exceptions the test did not expect."""

    def __init__(self, errors: list[ConsoleMessage]) -> None:
        self.errors = errors
        lines = "\n".join(f"  [{e.source}] {e.text}" for e in errors)
        super().__init__(f"{len(errors)} console error(s) in the browser:\n{lines}")


@dataclass(frozen=True)
class ConsoleMessage:
    """One message of the browser's console: ``level`` is ``SEVERE`` (``console.error``, an
    uncaught exception or promise rejection, a resource that failed to load), ``WARNING``,
    ``INFO`` or ``DEBUG``; ``source`` is ``console-api``, ``javascript``, ``network``, ...;
    ``text`` is Chromium's text (the script's URL and line, then the message)."""

    level: str
    source: str
    text: str

    @property
    def is_error(self) -> bool:
        return self.level == "SEVERE"


def find_chromium() -> tuple[str, str]:
    """The paths of a Chromium and its chromedriver: ``KH_CHROMIUM`` / ``KH_CHROMEDRIVER`` if
    set, else the first of the usual names on ``PATH``. Raises :class:`BrowserUnavailable`
    saying what is missing."""
    found = []
    for env, names, what in (
        ("KH_CHROMIUM", CHROMIUM_NAMES, "Chromium"),
        ("KH_CHROMEDRIVER", DRIVER_NAMES, "chromedriver"),
    ):
        given = os.environ.get(env)
        if given:
            path = shutil.which(given)
            if path is None:
                raise BrowserUnavailable(f"{env}={given!r} is not an executable")
        else:
            path = next((p for p in map(shutil.which, names) if p), None)
            if path is None:
                raise BrowserUnavailable(
                    f"no {what} on PATH (looked for {', '.join(names)}; "
                    "apt-get install chromium chromium-driver, or set "
                    f"{env}); run with {REQUIRE_ENV}=1 to fail instead of skipping"
                )
        found.append(path)
    return found[0], found[1]


def start_driver() -> Any:
    """Start headless Chromium under chromedriver; return the Selenium WebDriver."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as err:
        raise BrowserUnavailable(
            f"selenium is not installed ({err}; it is in the test extra: pip install "
            f"'.[test]'); run with {REQUIRE_ENV}=1 to fail instead of skipping"
        ) from err
    chromium, chromedriver = find_chromium()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # an explicit driver path: Selenium Manager (which downloads drivers) is never asked
    driver = webdriver.Chrome(options=options, service=Service(chromedriver))
    driver.set_page_load_timeout(30)
    return driver


def file_url(path: str | os.PathLike[str]) -> str:
    return Path(path).resolve().as_uri()


class Browser:
    """One test's handle on the session's headless Chromium.

    Element look-ups take CSS selectors. Look-ups that find nothing raise ``AssertionError``
    naming the selector. Console messages are collected across pages until the test ends."""

    def __init__(self, driver: Any, screenshots: Path, name: str) -> None:
        self.driver = driver
        self.screenshots = screenshots
        self.name = name
        self._messages: list[ConsoleMessage] = []
        self._expected: list[re.Pattern[str]] = []
        self._opened = False
        self._reported: set[int] = set()  # messages already raised by check(), by index

    # -- pages ---------------------------------------------------------------------------
    def open(self, target: str | os.PathLike[str], *, wait_for: str | None = None) -> None:
        """Open a local file (a path) or a URL (a string with ``://`` or ``about:``); wait until
        the document has loaded, and until ``wait_for`` (a CSS selector) matches if given."""
        text = os.fspath(target)
        if isinstance(target, str) and ("://" in text or text.startswith("about:")):
            url = text
        else:
            path = Path(text)
            if not path.is_file():
                raise FileNotFoundError(f"no HTML file at {path}")
            url = file_url(path)
        self.driver.get(url)
        self._opened = True
        if wait_for is not None:
            self.wait_for(wait_for)

    @property
    def url(self) -> str:
        return str(self.driver.current_url)

    @property
    def title(self) -> str:
        return str(self.driver.title)

    def resize(self, width: int, height: int) -> None:
        """Set the viewport's size in CSS pixels (each test starts at ``WINDOW``)."""
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    # -- elements ------------------------------------------------------------------------
    def _find_all(self, css: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, css))

    def _find(self, css: str) -> Any:
        found = self._find_all(css)
        if not found:
            raise AssertionError(f"no element matches {css!r} on {self.url}")
        return found[0]

    def count(self, css: str) -> int:
        """How many elements match ``css``."""
        return len(self._find_all(css))

    def text(self, css: str) -> str:
        """The text of the first element matching ``css`` (its ``textContent``, whitespace
        collapsed and trimmed, so hidden elements are read too)."""
        return _squash(self._find(css).get_attribute("textContent") or "")

    def texts(self, css: str) -> list[str]:
        """The texts of every element matching ``css``, in document order."""
        return [_squash(e.get_attribute("textContent") or "") for e in self._find_all(css)]

    def attr(self, css: str, name: str) -> str | None:
        """An attribute (or DOM property) of the first element matching ``css``."""
        return self._find(css).get_attribute(name)

    def visible(self, css: str) -> bool:
        """Whether the first element matching ``css`` is displayed."""
        return bool(self._find(css).is_displayed())

    def js(self, script: str, *args: Any) -> Any:
        """Run JavaScript in the page and return what it returns (``script`` is a function
        body: write ``return ...``; ``arguments[0]`` ... are ``args``)."""
        return self.driver.execute_script(script, *args)

    def click(self, css: str) -> None:
        self._find(css).click()

    def press(self, key: str, css: str | None = None, *, times: int = 1) -> None:
        """Press a key ``times`` times: a DOM key name (``ArrowRight``, ``Enter``, ``Escape``,
        ``Home``, ...; see ``_KEYS``) or one character. The key goes to the element matching
        ``css`` (focused first) or, without it, to whatever has the focus (the page's body
        after loading)."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        if key in _KEYS:
            code = getattr(Keys, _KEYS[key])
        elif len(key) == 1:
            code = key
        else:
            raise ValueError(f"unknown key {key!r}: one of {', '.join(_KEYS)} or one character")
        if css is not None:
            self.js("arguments[0].focus();", self._find(css))
        chain = ActionChains(self.driver)
        for _ in range(times):
            chain.send_keys(code)
        chain.perform()

    def wait_for(self, css: str, timeout: float = 5.0) -> None:
        """Wait until an element matches ``css``; ``AssertionError`` after ``timeout`` s."""
        self._wait(lambda: self.count(css) > 0, timeout, f"no element matches {css!r}")

    def wait_text(self, css: str, expected: str, timeout: float = 5.0) -> None:
        """Wait until the first element matching ``css`` has the text ``expected``."""
        last: list[str] = []

        def done() -> bool:
            last[:] = self.texts(css)[:1]
            return last == [expected]

        self._wait(done, timeout, f"{css!r} never read {expected!r} (last: {last})")

    def _wait(self, done: Any, timeout: float, message: str) -> None:
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                raise AssertionError(f"{message} within {timeout} s on {self.url}")
            time.sleep(0.02)

    # -- console -------------------------------------------------------------------------
    def console(self) -> list[ConsoleMessage]:
        """Every console message of this test so far (all levels, every page opened)."""
        for entry in self.driver.get_log("browser"):  # drains the driver's buffer
            self._messages.append(
                ConsoleMessage(entry.get("level", ""), entry.get("source", ""), entry["message"])
            )
        return list(self._messages)

    def errors(self) -> list[ConsoleMessage]:
        """The console errors and uncaught exceptions so far that no pattern given to
        :meth:`expect_errors` matches."""
        return [m for m in self.console() if m.is_error and not self._is_expected(m)]

    def _is_expected(self, message: ConsoleMessage) -> bool:
        return any(p.search(message.text) for p in self._expected)

    def expect_errors(self, *patterns: str) -> None:
        """Declare errors this test expects: any console error whose text a pattern (a regular
        expression, searched) matches is not a failure."""
        self._expected.extend(re.compile(p) for p in patterns)

    def check(self) -> None:
        """Raise :class:`ConsoleErrors` if the page logged an unexpected error not reported
        yet (the harness calls this when the test body ends; call it earlier to fail at a known
        point)."""
        __tracebackhide__ = True
        self.console()
        new = [
            i
            for i, m in enumerate(self._messages)
            if i not in self._reported and m.is_error and not self._is_expected(m)
        ]
        if new:
            self._reported.update(new)
            raise ConsoleErrors([self._messages[i] for i in new])

    # -- screenshots ---------------------------------------------------------------------
    def screenshot(self, label: str | None = None, *, full_page: bool = True) -> Path:
        """Save a PNG of the page to ``<artifacts>/screenshots/<test>[__<label>].png`` and return
        its path; ``full_page`` takes the whole document (up to ``MAX_SCREENSHOT_HEIGHT``),
        not only the viewport."""
        import base64

        name = self.name if label is None else f"{self.name}__{_slug(label)}"
        path = self.screenshots / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
            width = max(1, int(size["width"]))
            height = max(1, min(int(size["height"]), MAX_SCREENSHOT_HEIGHT))
            params["clip"] = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
            params["captureBeyondViewport"] = True
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", params)
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    # -- between tests -------------------------------------------------------------------
    def _reset(self) -> None:
        """Start from a blank page of the default size, with no storage or cookies left from
        the previous test and an empty console buffer."""
        self.driver.get("about:blank")
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.resize(*WINDOW)
        self.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        self.driver.execute_cdp_cmd(
            "Storage.clearDataForOrigin", {"origin": "*", "storageTypes": "all"}
        )
        self.driver.get_log("browser")


def _squash(text: str) -> str:
    return " ".join(text.split())


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\[\]=-]+", "-", text).strip("-") or "page"


def artifacts_dir() -> Path:
    """Where tests save what CI keeps: ``KH_TEST_ARTIFACTS`` or ``<repo>/test-artifacts``."""
    return Path(os.environ.get(ARTIFACTS_ENV) or ROOT / "test-artifacts")


def screenshot_name(node: pytest.Item) -> str:
    """``<module stem>__<test name with parameters>``, safe as a file name."""
    module = Path(str(node.path)).stem if getattr(node, "path", None) else "test"
    return _slug(f"{module}__{node.name}")


def browser_required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def unavailable(reason: str) -> None:
    """Skip the test, or fail it when ``KH_REQUIRE_BROWSER=1``; never returns."""
    if browser_required():
        pytest.fail(f"{REQUIRE_ENV}=1 but the browser tests cannot run: {reason}", pytrace=False)
    pytest.skip(reason)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        # the browser asks every site for /favicon.ico by itself: answer "no content" where the
        # directory has none, rather than a 404 that the console reports as an error of the page
        if self.path == "/favicon.ico" and not Path(self.translate_path(self.path)).is_file():
            self.send_response(204)
            self.end_headers()
            return None
        return super().send_head()


@contextlib.contextmanager
def serve_directory(directory: str | os.PathLike[str]) -> Iterator[str]:
    """Serve ``directory`` over HTTP on 127.0.0.1 (a free port) while the block runs; yield the
    base URL (ending in ``/``). For pages that must not be opened as ``file://`` (web workers,
    ``fetch`` of sibling files, a site's directory URLs)."""
    handler = functools.partial(_QuietHandler, directory=os.fspath(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="session")
def browser_driver() -> Iterator[Any]:
    """The session's Chromium (started on first use, quit at the end), or the reason there is
    none (a :class:`BrowserUnavailable`)."""
    try:
        driver = start_driver()
    except BrowserUnavailable as err:
        yield err
        return
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(request: pytest.FixtureRequest, browser_driver: Any) -> Iterator[Browser]:
    """A :class:`Browser` for this test; skipped without Chromium (failed with
    ``KH_REQUIRE_BROWSER=1``). When the body ends, any console error the test did not expect
    fails it (``pytest_runtest_call`` below); at teardown, a screenshot of the last page (and an
    error for console errors logged after the check or behind a failure of the body)."""
    if isinstance(browser_driver, BrowserUnavailable):
        unavailable(str(browser_driver))
    page = Browser(browser_driver, artifacts_dir() / "screenshots", screenshot_name(request.node))
    page._reset()
    yield page
    if page._opened:
        page.screenshot()
    try:  # errors logged after the body's check, or not checked because the body failed
        page.check()
    except ConsoleErrors as err:
        pytest.fail(str(err), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """After a test body that passed, check each of its :class:`Browser` fixtures for console
    errors, so that they fail the test itself (not its teardown)."""
    __tracebackhide__ = True
    result = yield
    for value in getattr(item, "funcargs", {}).values():
        if isinstance(value, Browser):
            value.check()
    return result
