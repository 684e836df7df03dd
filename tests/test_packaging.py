"""Packaging (issue 9, item 16): the installed package's metadata declares what was tested
(Python >= 3.11, matching the abi3 floor of the extension), carries a license, a readme and
classifiers, and the test command leaves the user's pip alone."""

from __future__ import annotations

import importlib.metadata as md
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def meta():
    return md.metadata("ketharmad")


def test_requires_python_matches_the_tested_interpreters(meta):
    assert meta["Requires-Python"] == ">=3.11"
    assert sys.version_info >= (3, 11)
    versions = {c.rsplit(" :: ", 1)[1] for c in meta.get_all("Classifier")
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}  # fmt: skip
    assert versions and min(versions, key=lambda v: int(v.split(".")[1])) == "3.11"


def test_extension_abi_floor_matches_requires_python():
    """The wheel's abi3 tag (pyo3 feature ``abi3-py3XX``) is the same floor as requires-python."""
    tag = md.distribution("ketharmad").read_text("WHEEL")
    assert tag is not None
    tags = [line.split(": ", 1)[1] for line in tag.splitlines() if line.startswith("Tag: ")]
    assert tags and all(t.startswith("cp311-abi3-") for t in tags), tags
    cargo = ROOT / "Cargo.toml"
    if cargo.exists():  # a source checkout
        pyo3 = tomllib.loads(cargo.read_text(encoding="utf-8"))["dependencies"]["pyo3"]
        assert "abi3-py311" in pyo3["features"]


def test_license_readme_and_classifiers(meta):
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    dist = md.distribution("ketharmad")
    licenses = [f for f in dist.files or [] if f.name == "LICENSE"]
    assert licenses and "MIT License" in licenses[0].read_text(encoding="utf-8")
    assert meta["Description-Content-Type"].startswith("text/markdown")
    assert "# ketharmad" in (meta.get_payload() or meta["Description"] or "")
    classifiers = meta.get_all("Classifier")
    assert "Programming Language :: Rust" in classifiers
    assert "Operating System :: POSIX :: Linux" in classifiers
    # no project URL that points nowhere: the project has none to give
    assert not meta.get_all("Project-URL")


@pytest.mark.skipif(not (ROOT / "scripts" / "test.sh").exists(), reason="source checkout only")
def test_test_command_does_not_upgrade_pip():
    script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    commands = [line for line in script.splitlines() if not line.lstrip().startswith("#")]
    for line in commands:
        assert not re.search(r"pip\s+install\b.*(--upgrade|-U)\b.*\bpip\b", line), line
