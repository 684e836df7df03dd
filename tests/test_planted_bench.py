"""benches/planted.py, the planted-damage suite of issue 24, in its CI size: the plants are
drawn from the seed, written as card files with no trace of the plant, and judged."""

from __future__ import annotations

from pathlib import Path

import ketharmad
import polars as pl
from conftest import load_script


def _bench():
    return load_script("benches/planted.py", "planted_bench")


def test_plants_are_drawn_per_faction_and_written_without_a_trace(tmp_path):
    b = _bench()
    table = ketharmad.parameters(card_data="balanced")
    plants = b.draw_plants(8, 7, table)
    assert plants == b.draw_plants(8, 7, table)  # the seed draws them
    assert [sorted({n.split("_", 1)[0] for n in p.edits}) for p in plants[:4]] == [
        ["ner"],
        ["tis"],
        ["rad"],
        ["osz"],
    ]
    for p in plants:
        assert 1 <= len(p.edits) <= 3
        assert all(1 <= abs(v - p.printed[n]) <= 3 for n, v in p.edits.items())
    path = b.damaged_file(plants[0], str(tmp_path))
    text = Path(path).read_text()
    assert "#" not in "".join(line[:1] for line in text.splitlines())  # no comment line
    assert "override" not in text and "balance" not in text
    got = ketharmad.parameters(card_data=path)
    for name, value in plants[0].edits.items():
        assert got.filter(pl.col("name") == name)["default"].item() == value


def test_two_small_plants_run_and_are_judged(capsys):
    assert _bench().main(["--small", "--plants", "2", "--budget", "20000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "drawn with --seed 3" in out
    assert out.count("  plant ") == 2
    assert "plants that put a metric out of band:" in out and "median wall time a plant:" in out
