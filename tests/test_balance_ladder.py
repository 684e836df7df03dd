"""ketharmad.balance over a ladder of bots and with designer-drawn targets (issue 27 items 1-2):
``[ladder]`` (rungs, screen, per-rung bands, the skill band) and ``[length]`` (game-length
bands), parsed by name, and small real runs on the cheap rule bots (docs/balance.md, "Balance
over a ladder of bots")."""

from __future__ import annotations

from pathlib import Path

import ketharmad
import polars as pl
import pytest
from ketharmad.lab.balance.report import balance_markdown
from ketharmad.lab.balance.targets import CHEAP_KINDS, load_targets

HERE = Path(__file__).parent
SMALL = HERE / "test_balance_small.toml"

#: Three parameters of the small targets file: one edit at most, small effects.
ALLOW = ["ner_orban_viktor.cost_generic", "ner_rogan_antal.influence", "tis_magyar_peter.influence"]
#: Block sizes and a budget that keep a run to a second or two on 2 cores.
CHEAP = {"games_2p": 20}
BUDGET = 20_000


def _doc(**sections: object) -> dict:
    doc: dict = {
        "two_player": {"others": False, "pairs": {"ner-tisza": {"target": 0.2, "tolerance": 0.2}}},
        "change": {"allow": ALLOW, "max_edits": 1},
    }
    doc.update(sections)
    return doc


# ---------------------------------------------------------------- parsing


def test_ladder_rungs_screen_and_per_rung_bands_parse() -> None:
    tg = load_targets({
        "two_player": {"target": 0.5, "tolerance": 0.03, "pairs": {"ner-tisza": {"target": 0.45, "tolerance": 0.02}}},
        "length": {"median": {"low": 14, "high": 24}, "mean": {"target": 20, "tolerance": 5}},
        "ladder": {
            "rungs": ["heuristic", "tuned", {"kind": "ismcts", "iterations": 20}],
            "bands": {"tuned": {"two_player": {"tolerance": 0.05}, "length": False},
                      "ismcts": {"start_player": {"low": 0.4, "high": 0.6}}},
            "skill_margin": 0.6,
            "skill_games": 48,
        },
    })  # fmt: skip
    lad = tg.ladder
    assert lad is not None and lad.names == ["heuristic", "tuned", "ismcts"]
    assert lad.specs[2] == {"kind": "ismcts", "iterations": 20}
    # the rule bots screen by default, the search bot confirms
    assert [r.screen for r in lad.rungs] == [True, True, False]
    assert set(CHEAP_KINDS) >= {"heuristic", "tuned"}
    assert lad.skill_margin == 0.6 and lad.skill_games == 48
    heur, tuned, ismcts = ({m.name: m for m in r.metrics} for r in lad.rungs)
    # the top-level bands apply to every rung unless the rung overrides them
    assert heur["2p ner-tisza"].low == pytest.approx(0.43)
    assert heur["2p ner-radikalisok"].high == pytest.approx(0.53)
    assert heur["median game length (2 players)"].low == 14
    assert heur["mean game length (2 players)"].high == 25
    # tuned: the section's tolerance widened; the pair named at the top keeps its own band
    assert tuned["2p ner-radikalisok"].high == pytest.approx(0.55)
    assert tuned["2p ner-tisza"].low == pytest.approx(0.43)
    assert not any("length" in n for n in tuned)  # length = false: not measured under tuned
    assert ismcts["start player"].low == 0.4 and "median game length (2 players)" in ismcts
    # the top-level metrics are what a run without a ladder would measure
    assert [m.name for m in tg.metrics] == list(heur)


def test_a_four_player_length_band_plays_the_four_player_games() -> None:
    tg = load_targets({"length": {"median": {"low": 20, "high": 60}, "players": 4}})
    (m,) = tg.metrics
    assert m.name == "median game length (4 players)" and m.players == 4  # type: ignore[attr-defined]
    assert tg.four_player and tg.pairs == []  # the 24 seatings, no 2-player games


def test_a_named_rung_and_an_explicit_screen() -> None:
    tg = load_targets({"ladder": {
        "rungs": ["random", {"kind": "heuristic", "aggression": 0.8, "name": "bold"}, "heuristic"],
        "screen": ["random"],
    }})  # fmt: skip
    lad = tg.ladder
    assert lad is not None and lad.names == ["random", "bold", "heuristic"]
    assert lad.specs[1] == {"kind": "heuristic", "aggression": 0.8}  # the name is not a knob
    assert [r.screen for r in lad.rungs] == [True, False, False]
    assert lad.skill_margin is None


def test_a_document_without_ladder_or_length_reads_as_before() -> None:
    tg = load_targets(SMALL)
    assert tg.ladder is None
    assert [m.kind for m in tg.metrics] == ["2p", "2p"]


@pytest.mark.parametrize(
    "section, field",
    [
        ({"ladder": {"rungs": ["heuristic"], "skil_margin": 0.6}}, r"targets\.ladder: unknown key\(s\) skil_margin"),
        ({"ladder": {"screen": ["heuristic"]}}, r"targets\.ladder\.rungs is missing"),
        ({"ladder": {"rungs": []}}, r"targets\.ladder\.rungs must be a non-empty list"),
        ({"ladder": {"rungs": ["heuristic", "grandmaster"]}}, r"targets\.ladder\.rungs\[1\]: unknown bot kind 'grandmaster'"),
        ({"ladder": {"rungs": ["heuristic", {"iterations": 5}]}}, r"targets\.ladder\.rungs\[1\]: a bot given as a dict needs a 'kind'"),
        ({"ladder": {"rungs": ["heuristic", "heuristic"]}}, r"targets\.ladder\.rungs: two rungs are named 'heuristic'"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "screen": ["aggro"]}},
         r"targets\.ladder\.screen: 'aggro' is not among the rungs"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "skill_margin": 0.4}}, r"targets\.ladder\.skill_margin must be in 0\.5\.\.1"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "skill_margin": 1.2}}, r"targets\.ladder\.skill_margin must be in 0\.5\.\.1"),
        ({"ladder": {"rungs": ["heuristic"], "skill_margin": 0.6}}, r"targets\.ladder\.skill_margin needs at least two rungs"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "skill_games": 100}}, r"targets\.ladder\.skill_games must be a multiple of 24"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "bands": {"aggro": {}}}}, r"targets\.ladder\.bands\.aggro: unknown rung 'aggro'"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "bands": {"tuned": {"two_player": {"tolerance": 2}}}}},
         r"targets\.ladder\.bands\.tuned\.two_player\.tolerance must be in 0\.\.1"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "bands": {"tuned": {"two_player": {"pairs": {"ner-ner": 0.5}}}}}},
         r"targets\.ladder\.bands\.tuned\.two_player\.pairs\.ner-ner: a mirror pair"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "bands": {"tuned": {"change": {}}}}},
         r"targets\.ladder\.bands\.tuned: unknown key\(s\) change"),
        ({"ladder": {"rungs": ["heuristic", "tuned"], "bands": {"tuned": {"turns": 3}}}},
         r"targets\.ladder\.bands\.tuned\.turns must be a table"),
        ({"two_player": {"others": False, "pairs": {"ner-tisza": 0.5}},
          "ladder": {"rungs": ["heuristic", "aggro"], "bands": {"aggro": {"two_player": False}}}},
         r"targets\.ladder\.bands\.aggro: every metric section is false"),
        ({"ladder": {"rungs": ["heuristic", {"kind": "heuristic", "name": "h2"}], "skill_margin": 0.6}},
         r"targets\.ladder\.rungs: rungs 'heuristic' and 'h2' are the same bot"),
        ({"length": {"median": {"low": 30, "high": 20}}}, r"targets\.length\.median: low 30 is above high 20"),
        ({"length": {"median": 18}}, r"targets\.length\.median needs low and high"),
        ({"length": {"p90": {"low": 1, "high": 2}}}, r"targets\.length: unknown key\(s\) p90"),
        ({"length": {"median": {"low": 10, "high": 20}, "players": 3}}, r"targets\.length\.players must be 2 or 4"),
        ({"length": {"players": 2}}, r"targets\.length needs a band"),
        ({"length": {"mean": {"low": -1, "high": 20}}}, r"targets\.length\.mean\.low must be in 0\.\.1e\+06"),
    ],
)  # fmt: skip
def test_bad_ladder_and_length_targets_name_the_key(section: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        load_targets(section)


def test_bots_and_ladder_given_both_must_agree() -> None:
    doc = _doc(ladder={"rungs": ["heuristic", "aggro"]})
    with pytest.raises(
        ValueError,
        match=r"bots='random' and the targets' \[ladder\] rungs \['heuristic', 'aggro'\] disagree",
    ):
        ketharmad.balance(doc, bots="random", budget=BUDGET)
    with pytest.raises(ValueError, match=r"settings\.robustness_bots='random': a \[ladder\]"):
        ketharmad.balance(doc, budget=BUDGET, settings={"robustness_bots": "random"})
    # a rung's own 4-player bands that cannot all hold: refused before a game is played
    four = _doc(ladder={"rungs": ["heuristic", "aggro"], "bands": {"aggro": {"four_player": {
        "factions": {"ner": {"target": 0.7, "low": 0.6, "high": 0.9}, "tisza": {"target": 0.7, "low": 0.6, "high": 0.9}}}}}})  # fmt: skip
    with pytest.raises(ValueError, match=r"targets\.ladder\.bands\.aggro: .*lows sum to 1\.62"):
        ketharmad.balance(four, budget=BUDGET)
    # a knob the rung's bot does not have: refused by name before a game is played
    bad = _doc(ladder={"rungs": ["heuristic", {"kind": "ismcts", "iterz": 20}]})
    with pytest.raises(
        ValueError, match=r"targets\.ladder\.rungs \(ismcts\): bot 'ismcts' has no knob 'iterz'"
    ):
        ketharmad.balance(bad, budget=BUDGET)


# ---------------------------------------------------------------- real runs


@pytest.fixture(scope="module")
def two_rungs() -> ketharmad.BalanceResult:
    """heuristic and aggro on the same seeds, a length band heuristic meets (its median
    2-player game is 16 turns here) and aggro does not (14: it ends games sooner)."""
    doc = _doc(length={"median": {"low": 15.5, "high": 24}},
               ladder={"rungs": ["heuristic", "aggro"], "screen": ["heuristic"]})  # fmt: skip
    return ketharmad.balance(doc, budget=BUDGET, seed=1, settings=CHEAP, run={"threads": 2})


def test_ladder_run_reports_games_per_rung(two_rungs: ketharmad.BalanceResult) -> None:
    res = two_rungs
    lad = res.ladder
    assert lad is not None and res.rungs == ["heuristic", "aggro"]
    rows = {r["rung"]: r for r in lad.iter_rows(named=True)}
    assert rows["heuristic"]["role"] == "screen" and rows["aggro"]["role"] == "confirm"
    # both rungs played; the confirming rung only in the confirmation
    assert rows["heuristic"]["games"] > 0 and rows["aggro"]["games"] > 0
    assert rows["heuristic"]["search_games"] > 0 and rows["aggro"]["search_games"] == 0
    assert rows["aggro"]["confirm_games"] == rows["heuristic"]["confirm_games"] > 0
    assert sum(r["games"] for r in rows.values()) == res.games  # every game of the run is a rung's
    # the before/after tables have every metric under every rung
    assert res.after["rung"].to_list() == ["heuristic", "heuristic", "aggro", "aggro"]
    text = res.text()
    assert "games per rung: heuristic (screen) " in text and "; aggro (confirm) " in text
    md = "\n".join(balance_markdown(res, None, False))
    assert "## Ladder (games per rung)" in md and "| aggro | aggro | confirm | 0 |" in md


def test_out_of_band_under_one_rung_is_out_of_band(two_rungs: ketharmad.BalanceResult) -> None:
    res = two_rungs
    after = {(r["rung"], r["kind"]): r for r in res.after.iter_rows(named=True)}
    h, a = after[("heuristic", "length")], after[("aggro", "length")]
    assert 15.5 <= h["value"] <= 24 and h["in_band"]  # in band under the heuristic ...
    assert a["value"] < 15.5 and not a["in_band"]  # ... not under aggro
    assert after[("heuristic", "2p")]["in_band"] and after[("aggro", "2p")]["in_band"]
    rows = {r["rung"]: r for r in res.ladder.iter_rows(named=True)}
    assert rows["heuristic"]["in_band_after"] and not rows["aggro"]["in_band_after"]
    assert res.in_band is False and res.best_confirmed is False
    assert "aggro: median game length (2 players)" in res.text()


def test_a_violated_length_band_is_out_of_band() -> None:
    """Without a ladder: the median and mean game length (in the game's turns) are measured
    on the 2-player games the balancer plays, and a band they miss is reported out of band."""
    doc = _doc(length={"median": {"low": 30, "high": 40}, "mean": {"low": 5, "high": 60}})
    res = ketharmad.balance(doc, bots="heuristic", budget=BUDGET, seed=2,
                            settings={**CHEAP, "robustness_bots": None, "robustness_search": None})  # fmt: skip
    after = {r["metric"]: r for r in res.after.iter_rows(named=True)}
    med, mean = after["median game length (2 players)"], after["mean game length (2 players)"]
    assert med["kind"] == "length" and 10 <= med["value"] < 30 and not med["in_band"]
    assert mean["kind"] == "length_mean" and mean["in_band"] and mean["ci_low"] < mean["value"]
    assert not res.in_band and not res.best_confirmed
    line = next(x for x in res.text().splitlines() if x.startswith("median game length"))
    assert "30.0..40.0" in line and line.rstrip().endswith("NO")
    # the median game is twice the median turns per player (the same 2-player games)
    res2 = ketharmad.balance({**doc, "turns": {"low": 1, "high": 100}}, bots="heuristic", budget=BUDGET,
                             seed=2, settings={**CHEAP, "robustness_bots": None, "robustness_search": None})  # fmt: skip
    after2 = {r["metric"]: r for r in res2.after.iter_rows(named=True)}
    assert after2["median game length (2 players)"]["value"] == med["value"]
    assert abs(2 * after2["median turns per player"]["value"] - med["value"]) <= 1


def test_skill_band_reports_the_rung_over_rung_win_rate() -> None:
    doc = _doc(
        ladder={"rungs": ["random", "heuristic", "aggro"], "skill_margin": 0.6, "skill_games": 240}
    )
    res = ketharmad.balance(doc, budget=BUDGET, seed=3, settings=CHEAP, run={"threads": 2})
    sk = res.skill
    assert sk is not None and res.skill_margin == 0.6
    start = {
        (r["lower"], r["upper"]): r
        for r in sk.filter(pl.col("point") == "start").iter_rows(named=True)
    }
    up = start[("random", "heuristic")]
    assert up["games"] == 240 and up["win_rate"] > 0.9 and up["holds"]
    # aggro does not beat the heuristic by 60 % (measured about 38 %): the skill band fails
    assert (
        start[("heuristic", "aggro")]["win_rate"] < 0.6
        and not start[("heuristic", "aggro")]["holds"]
    )
    assert res.skill_holds is False
    # the rate is ketharmad.ladder's on the same seeds
    direct = ketharmad.ladder(
        ["heuristic", "aggro"], games=240, seed=3, bootstrap=0, run={"threads": 2}
    )
    assert direct.order["win_rate"][0] == pytest.approx(start[("heuristic", "aggro")]["win_rate"])
    rows = {r["rung"]: r for r in res.ladder.iter_rows(named=True)}
    measured = 2 if res.best.height else 1  # start, and the proposal when it has edits
    assert rows["heuristic"]["skill_games"] == 2 * 240 * measured
    assert rows["random"]["skill_games"] == 240 * measured
    assert (
        "skill band (each rung beats the rung below with at least 60.0%): does NOT hold"
        in res.text()
    )


def test_skill_band_that_holds() -> None:
    doc = _doc(ladder={"rungs": ["random", "heuristic"], "skill_margin": 0.7, "skill_games": 48})
    res = ketharmad.balance(doc, budget=BUDGET, seed=4, settings=CHEAP, run={"threads": 2})
    assert res.skill_holds is True
    best = res.skill.filter(pl.col("point") == "best").row(0, named=True)
    assert best["win_rate"] >= 0.7 and best["ci_low"] > 0.5


def test_ladder_resume_from_its_journal_gives_the_same_run(tmp_path: Path) -> None:
    doc = _doc(ladder={"rungs": ["heuristic", "aggro"], "screen": ["heuristic"]})
    j = tmp_path / "ladder.jsonl"
    a = ketharmad.balance(doc, budget=BUDGET, seed=5, settings=CHEAP, journal=j, run={"threads": 2})
    b = ketharmad.balance(doc, budget=BUDGET, seed=5, settings=CHEAP, journal=j, run={"threads": 1})
    assert b.games_played == 0 and a.games_played > 0  # every evaluation replayed from the journal
    assert a.history.equals(b.history) and a.ladder.equals(b.ladder)
    # an evaluation is keyed by its bots, point and blocks: a run of the heuristic alone finds
    # the games its rung played in the ladder's journal (the same seeds; the same screen,
    # since only the heuristic screened)
    c = ketharmad.balance(_doc(), bots="heuristic", budget=BUDGET, seed=5, journal=j,
                          settings={**CHEAP, "robustness_bots": None, "robustness_search": None})  # fmt: skip
    assert 0 < c.games_played < c.games


def test_cli_balance_with_a_ladder(tmp_path: Path, capsys) -> None:
    from ketharmad.cli import main

    targets = tmp_path / "t.toml"
    targets.write_text(
        '[two_player]\nothers = false\npairs = { "ner-tisza" = { target = 0.2, tolerance = 0.2 } }\n'
        f"[change]\nallow = {ALLOW!r}\nmax_edits = 1\n".replace("'", '"')
        + '[ladder]\nrungs = ["heuristic", "aggro"]\n'
    )
    assert main(["balance", str(targets), "--budget", str(BUDGET), "--threads", "2"]) == 0
    out = capsys.readouterr().out
    assert "games per rung: heuristic (screen)" in out and "aggro (screen)" in out


@pytest.mark.parametrize(
    "name, max_change", [("ladder_targets.toml", 3), ("ladder_targets_wide.toml", 5)]
)
def test_the_shipped_ladder_targets_files_load_with_their_reach(name: str, max_change: int) -> None:
    """scripts/ladder_targets.toml and its wider-reach sibling (docs/balance.md, the ladder runs):
    the same bands, rungs and edit cap; only how far a number may move differs."""
    t = load_targets(HERE.parent / "scripts" / name)
    assert t.max_edits == 15 and t.max_change == max_change
    assert t.ladder is not None and [r.name for r in t.ladder.rungs] == [
        "heuristic",
        "tuned",
        "learned",
    ]
    bands = {(m.kind, m.low, m.high) for r in t.ladder.rungs for m in r.metrics}
    assert bands == {("2p", 0.47, 0.53), ("4p", 0.21, 0.29)}


def test_the_ladder_points_are_valid_starts_for_the_wide_targets() -> None:
    """scripts/ladder_points/*.json (docs/balance.md, the fifth try: the proposals each
    continuation started from, ``--repair-from``): each a point the wide targets allow, every
    value inside its bounds, at most 15 edits, and the check reads it as one proposal."""
    import json

    t = load_targets(HERE.parent / "scripts" / "ladder_targets_wide.toml")
    space = {p.name: p for p in t.space(ketharmad.parameters())}
    files = sorted((HERE.parent / "scripts" / "ladder_points").glob("*.json"))
    assert len(files) >= 4
    for f in files:
        point = json.loads(f.read_text(encoding="utf-8"))
        assert 1 <= len(point) <= t.max_edits, f
        for name, v in point.items():
            assert name in space and space[name].contains(v) and v != space[name].default, (f, name)
        # the card data builds with it
        ketharmad.simulate(["ner", "tisza"], "random", 2, seed=1, params=point)
