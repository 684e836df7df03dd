"""Every code block of README.md runs, and what the README says of its output is true (issue 23,
item 8).

* ```python blocks run in order in one namespace (this file's), in a scratch folder holding a
  copy of ``examples/``, with the package under test; their sizes are the README's own.
* ```bash blocks: each command line runs as a subprocess in the same folder, ``ketharmad ...`` as
  ``[sys.executable, "-m", "ketharmad", ...]`` so this interpreter's package is the one run. A
  line may chain commands with ``&&``. A command that installs the package or runs the whole
  suite is not run: it must be one of ``SKIPPED`` exactly (so a new line that cannot run here
  fails this test), and the rest of its line still runs.
* ```text blocks are not run; any other fence language fails the test.

Besides running, the tests check the README's statements about the output: the first command's
table (every faction, the start player), the Python calls the README says give the same table or
game, the other games' sides, the links into ``docs/`` and the paths of the Layout section.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import ketharmad
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
LANGS = {"python", "bash", "text"}
MAX_LINES = 160  # issue 23: "at most about 150 lines"
# Commands the README shows but this test does not run: exactly these strings (after shlex).
SKIPPED = {
    "pip install .": "installs the package; this suite tests the package already installed",
    "bash scripts/test.sh": "runs the whole test suite, this file included",
}
# Deprecated in favour of simulate(game=...), matchups(game=...), Game(game=...), env(game=...).
DEPRECATED = ("simulate_game(", "game_matchups(", "game_state(", "game_env(")


def _text() -> str:
    return README.read_text(encoding="utf-8")


def _blocks() -> list[tuple[str, str, int]]:
    """(language, body, line of the body's first line) of every fenced block, in order."""
    text = _text()
    return [
        (m.group(1), m.group(2), text.count("\n", 0, m.start(2)) + 1) for m in FENCE.finditer(text)
    ]


def _commands() -> list[tuple[list[str], int]]:
    """Every command of the bash blocks: (argv, README line), ``&&`` chains split."""
    out = []
    for lang, body, first in _blocks():
        if lang != "bash":
            continue
        for i, line in enumerate(body.splitlines()):
            words = shlex.split(line, comments=True)
            cmd: list[str] = []
            for w in [*words, "&&"] if words else []:
                if w == "&&":
                    assert cmd, f"README.md:{first + i}: empty command in {line!r}"
                    out.append((cmd, first + i))
                    cmd = []
                else:
                    cmd.append(w)
    return out


def _to_run() -> list[tuple[list[str], int]]:
    return [(c, n) for c, n in _commands() if shlex.join(c) not in SKIPPED]


def test_readme_blocks_are_known_and_short():
    text = _text()
    assert len(text.splitlines()) <= MAX_LINES
    blocks = _blocks()
    assert text.count("```") == 2 * len(blocks), "an unclosed or malformed code fence"
    for lang, _, first in blocks:
        assert lang in LANGS, (
            f"README.md:{first}: code block language {lang!r} is not run by this test"
        )
    # the two set-up commands come first, as CI and users run them
    assert [shlex.join(c) for c, _ in _commands()[:3]] == [
        "pip install .", "ketharmad matchups --games-per-side 500 --seed 1", "bash scripts/test.sh"]  # fmt: skip
    for cmd, line in _commands():
        joined = shlex.join(cmd)
        if cmd[0] != "ketharmad":
            assert joined in SKIPPED, (
                f"README.md:{line}: {joined!r} is neither a ketharmad command nor allowed"
            )
        assert not set(cmd) & {"|", ";", ">", "<", "||", "&"}, (
            f"README.md:{line}: shell syntax this test does not run"
        )
    for name in DEPRECATED:
        assert name not in text, f"the README uses the deprecated {name}...)"
    # a game's index is index= / --index; game= and --game name a game
    assert not re.search(r"\bgame=\d|--game \d", text), "the README gives a game index as game="


def test_readme_links_and_layout_are_true():
    text = _text()
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert links
    for link in links:
        if "://" not in link:
            assert (ROOT / link).exists(), f"README links to {link}, which does not exist"
    for path in re.findall(
        r"`((?:docs|examples|scripts|tests|benches|tools|rust|python)/[\w./-]*)`", text
    ):
        assert (ROOT / path).exists(), f"README names {path}, which does not exist"
    # every path of the Layout block exists (the Rust part names rust/harness/ and rust/games/)
    layout = next(b for lang, b, _ in _blocks() if lang == "text" and "rust/harness/" in b)
    assert "rust/games/" in layout
    for line in layout.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        indent = line[: len(line) - len(line.lstrip())]
        words = stripped.split()
        if indent:  # a package entry: names until the first word that is not a path
            base = ROOT / "python" / "ketharmad"
            for w in words:
                w = w.rstrip(";,")
                if not re.fullmatch(r"[\w.]+\.py|[\w]+/", w):
                    break
                assert (base / w).exists(), (
                    f"Layout names python/ketharmad/{w}, which does not exist"
                )
        else:
            parent: Path | None = None
            for w in words:
                if not w.endswith("/"):
                    break
                p = ROOT / w if "/" in w[:-1] or parent is None else parent / w
                assert p.exists(), f"Layout names {w}, which does not exist"
                parent = p.parent
    for part in (
        "rust/engine",
        "rust/cards",
        "rust/bots",
        "rust/batch",
        "rust/harness",
        "rust/games",
        "rust/py",
    ):
        assert (ROOT / part).is_dir()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", work / "examples", ignore=shutil.ignore_patterns("*.rs"))
    return work


@pytest.fixture(scope="module")
def python_run(workdir: Path) -> list[dict[str, Any]]:
    """Run the README's python blocks in order in one namespace; per block: its README line, its
    printed output and a snapshot of the namespace after it."""
    if not os.environ.get(
        "KH_REQUIRE_RL"
    ):  # the README's env(...) needs the rl extra (scripts/test.sh has it)
        pytest.importorskip("pettingzoo")
    ns: dict[str, Any] = {"__name__": "readme"}
    done = []
    old = os.getcwd()
    os.chdir(workdir)
    try:
        for lang, body, first in _blocks():
            if lang != "python":
                continue
            code = compile("\n" * (first - 1) + body, str(README), "exec")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(code, ns)
            done.append({"line": first, "body": body, "out": out.getvalue(), "ns": dict(ns)})
    finally:
        os.chdir(old)
    return done


def _block(run: list[dict[str, Any]], marker: str) -> dict[str, Any]:
    """The first python block whose code contains ``marker``."""
    for b in run:
        if marker in b["body"]:
            return b
    raise AssertionError(f"no python block near {marker!r}")


def test_python_blocks_run(python_run):
    assert len(python_run) == sum(lang == "python" for lang, _, _ in _blocks()) >= 5


def test_python_blocks_say_true_things(python_run, workdir):
    factions = list(ketharmad.FACTIONS)
    sim = _block(python_run, "ketharmad.simulate(decks=")
    res, log = sim["ns"]["res"], sim["ns"]["log"]
    summary = res.summary()
    assert (
        summary["faction"].to_list() == ["ner", "tisza"]
        and summary["games"].to_list() == [10_000] * 2
    )
    assert {"win_rate", "ci_low", "ci_high"} <= set(summary.columns)
    assert res.games.height == 10_000 and res.players.height == 20_000
    # play(..., game=17) is game 17 of that batch
    row = res.games.row(17, named=True)
    assert (log.winner, log.turns) == (row["winner"], row["turns"])
    assert str(log) in sim["out"] and "wins" in str(log)

    # "format= picks one of the seven formats of ketharmad.formats()": seven, each played
    formats = ketharmad.formats()
    assert formats.height == 7 and formats["played"].all(), formats
    for name in formats["format"]:
        assert f"`{name}`" in _text(), f"the README does not name the format {name}"

    lab = _block(python_run, "ketharmad.matchups(games_per_side=500")
    m = lab["ns"]["m"]
    assert m.table.height == 16 and set(m.table["faction"]) == set(factions)
    assert {"faction", "opponent", "games", "wins", "win_rate", "ci_low"} <= set(m.table.columns)

    bal = _block(python_run, "ketharmad.balance(")
    assert bal["out"].startswith("SweepResult(") and "change vs baseline" in bal["out"]
    assert "\nbest: " in bal["out"] and "holdout games per point" in bal["out"]
    assert bal["ns"]["res"].best.height <= 2
    assert (workdir / "cards_balanced.toml").is_file()

    step = _block(python_run, "ketharmad.Game([")
    g = step["ns"]["g"]
    assert g.is_over and g.winner in (0, 1)
    # the legal actions the README shows for that game's first decision
    line = next(ln for ln in _text().splitlines() if ln.startswith("g.legal_actions()"))
    assert (
        repr(ketharmad.Game(["ner", "tisza"], seed=1).legal_actions())
        == line.split("#", 1)[1].strip()
    )

    other = _block(python_run, 'game="schotten_totten_2"')
    assert other["ns"]["st"].summary()["side"].to_list() == ["attacker", "defender"]
    assert "osztrakon" in other["out"] and "winner: seat" in other["out"]


_RAN: dict[tuple[str, ...], subprocess.CompletedProcess[str]] = {}


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a README ``ketharmad`` command once (later calls reuse its result)."""
    assert cmd[0] == "ketharmad", cmd
    if tuple(cmd) in _RAN:
        return _RAN[tuple(cmd)]
    env = dict(os.environ)
    pkg = str(Path(ketharmad.__file__).resolve().parents[1])  # the package this test imported
    env["PYTHONPATH"] = pkg + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("KETHARMAD_PROGRESS", None)
    proc = subprocess.run([sys.executable, "-m", "ketharmad", *cmd[1:]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    _RAN[tuple(cmd)] = proc
    return proc


@pytest.mark.parametrize("cmd,line", _to_run(), ids=[shlex.join(c) for c, _ in _to_run()])
def test_bash_command_runs(cmd, line, workdir):
    proc = _run(cmd, workdir)
    assert proc.returncode == 0, (
        f"README.md:{line}: {shlex.join(cmd)}\n{proc.stdout}\n{proc.stderr}"
    )
    assert proc.stdout.strip(), f"README.md:{line}: {shlex.join(cmd)} printed nothing"
    if cmd[1] == "matchups" and "--game" not in cmd:  # the faction table of the first command
        rows = [
            ln.split()[0] for ln in proc.stdout.splitlines() if ln.startswith("  ") and "%" in ln
        ]
        assert rows == list(ketharmad.FACTIONS), proc.stdout
        assert "start player wins" in proc.stdout
    if cmd[1] == "games":
        for name in ("ketharmad", "schotten_totten_2", "osztrakon"):
            assert name in proc.stdout


def test_first_command_prints_the_python_table(python_run, workdir):
    """The README: ``ketharmad.matchups(games_per_side=500, seed=1)`` is the table of the first
    command; the CLI lines of the simulate section play the Python calls' games."""
    first = _run(shlex.split("ketharmad matchups --games-per-side 500 --seed 1"), workdir)
    m = _block(python_run, "ketharmad.matchups(games_per_side=500")["ns"]["m"]
    # the first line holds the elapsed time
    assert first.stdout.splitlines()[1:] == str(m).splitlines()[1:]
    sim = _block(python_run, "ketharmad.simulate(decks=")["ns"]
    for cmd, _ in _to_run():
        if cmd[1] == "play" and "--game" not in cmd:
            assert _run(cmd, workdir).stdout.strip() == str(sim["log"]).strip()
        if cmd[1] == "simulate" and "--game" not in cmd:
            wins = sim["res"].summary()["wins"].to_list()
            out = _run(cmd, workdir).stdout
            assert all(f"{w:,}" in out for w in wins), out
