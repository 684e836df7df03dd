"""benches/plot_speed_history.py (issue 29 item 3): the history read in record order and
drawn, a workload that joined later starting at its own first record."""

from __future__ import annotations

import pytest
from conftest import load_script


def _mod():
    return load_script("benches/plot_speed_history.py", "plot_speed_history")


def test_history_is_read_in_record_order_and_plotted(tmp_path):
    csv = tmp_path / "h.csv"
    csv.write_text(
        "commit,workload,instructions,decisions\n"
        "aaa,random_2p,100,10\nbbb,random_2p,90,10\nbbb,stepper_2p,50,5\nccc,random_2p,91,10\n"
    )
    m = _mod()
    commits, counts = m.read_history(csv)
    assert commits == ["aaa", "bbb", "ccc"]
    assert counts == {"random_2p": {"aaa": 100, "bbb": 90, "ccc": 91}, "stepper_2p": {"bbb": 50}}
    pytest.importorskip("matplotlib")
    out = m.plot(csv, tmp_path / "p.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    empty = tmp_path / "e.csv"
    empty.write_text("commit,workload,instructions,decisions\n")
    with pytest.raises(ValueError, match="no records"):
        m.plot(empty, tmp_path / "e.png")
