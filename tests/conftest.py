"""Shared fixtures: small simulation batches reused across tests (keeps the suite fast)."""

from __future__ import annotations

import gc
import importlib.resources
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import ketharmad
import pytest
from browser import browser, browser_driver, pytest_runtest_call  # noqa: F401 (tests/browser.py)

TWO_P = ["ner", "tisza"]
THREE_P = ["ner", "osszefogas", "tisza"]
FOUR_P = ["ner", "osszefogas", "tisza", "radikalisok"]


def run_error(argv, capsys) -> str:
    """Run the CLI's ``main(argv)`` expecting exit status 2 and a one-line error (no
    traceback); return stderr."""
    from ketharmad.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err
    assert "Traceback" not in err
    return err


def load_script(relpath: str, name: str) -> ModuleType:
    """A script of the checkout that is not a package module (``benches/``, ``tools/``),
    loaded from ``relpath`` (from the checkout's root) as module ``name`` (registered in
    ``sys.modules``, where a dataclass of the script looks its module up)."""
    path = Path(__file__).resolve().parents[1] / relpath
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def packaged_card_text() -> str:
    """The text of the card-data file shipped in the package."""
    return (importlib.resources.files("ketharmad") / "data" / "cards.toml").read_text(
        encoding="utf-8"
    )


def first_card_block(text: str) -> str:
    """The first ``[[card]]`` table of a card-data file, including its sub-tables."""
    lines = text.splitlines()
    start = next(
        (i for i, line in enumerate(lines) if re.fullmatch(r"\s*\[\[card\]\]\s*(#.*)?", line)), None
    )
    assert start is not None, "no [[card]] table in the packaged card data"
    end = len(lines)
    for j in range(start + 1, len(lines)):
        s = lines[j].strip()
        if s.startswith("[") and not (s.startswith("[card.") or s.startswith("[[card.")):
            end = j
            break
    return "\n".join(lines[start:end]) + "\n"


@pytest.fixture(scope="session")
def batch2() -> ketharmad.SimResult:
    return ketharmad.simulate(TWO_P, games=2000, seed=7)


@pytest.fixture(scope="session")
def batch3() -> ketharmad.SimResult:
    return ketharmad.simulate(THREE_P, games=500, seed=11)


@pytest.fixture(scope="session")
def batch4() -> ketharmad.SimResult:
    return ketharmad.simulate(FOUR_P, games=500, seed=13)


@pytest.fixture(scope="session", params=["2p", "3p", "4p"])
def any_batch(request, batch2, batch3, batch4) -> ketharmad.SimResult:
    return {"2p": batch2, "3p": batch3, "4p": batch4}[request.param]


@pytest.fixture(scope="module", autouse=True)
def _collect_garbage_here() -> object:
    """Collect each test module's garbage on the main thread when the module ends. The step
    objects (``ketharmad.Game``, ``HarnessGame``) are unsendable PyO3 classes: one left in a
    reference cycle and collected later by a garbage collection that happens to run on a
    worker thread (a thread pool or an in-process Dask worker of another module) is not
    dropped but reported as an unraisable exception, which ``filterwarnings = error`` turns
    into a failure of whatever test runs then."""
    gc.collect()
    yield
    gc.collect()
