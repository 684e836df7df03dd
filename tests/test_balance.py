"""ketharmad.balance: known answers, determinism, resume after interruption, bounds, targets
errors, card-file export and the CLI (docs/balance.md)."""

from __future__ import annotations

import json
from pathlib import Path

import ketharmad
import polars as pl
import pytest
from ketharmad.lab.balance import search as _balance
from ketharmad.lab.balance.targets import load_targets

HERE = Path(__file__).parent
SMALL = HERE / "test_balance_small.toml"

# The planted detune: Orbán Viktor's generic cost 4 -> 1 lifts every NER pair by several
# points with the random bot (measured: +6 to +8 points at 1,000 games per side).
PLANTED = "ner_orban_viktor.cost_generic"
DECOYS = ["tis_magyar_peter.influence", "rad_hatarzar.cost_generic", "ner_rogan_antal.influence"]


def _measured_targets(bots: str, pairs: list[tuple[str, str]], tol: float) -> dict:
    """The undetuned set's measured 2-player table as targets (1,000 games per side)."""
    m = ketharmad.matchups(games_per_side=1000, bots=bots, seed=99)
    out = {}
    for r in m.table.iter_rows(named=True):
        if (r["faction"], r["opponent"]) in pairs:
            out[f"{r['faction']}-{r['opponent']}"] = {"target": r["win_rate"], "tolerance": tol}
    assert len(out) == len(pairs)
    return out


NER_PAIRS = [("ner", "tisza"), ("ner", "osszefogas"), ("ner", "radikalisok")]


@pytest.fixture(scope="module")
def ner_targets() -> dict:
    return _measured_targets("random", NER_PAIRS, 0.04)


def _known_answer_targets(pairs: dict, allow: list[str], k: int) -> dict:
    return {
        "two_player": {"others": False, "pairs": pairs},
        "change": {"allow": allow, "max_edits": k},
    }


def test_known_answer_single_edit(ner_targets: dict) -> None:
    """Detune one parameter by 3 steps; with K = 1 balance finds that parameter among decoys
    and moves it back to within one step of the shipped value."""
    targets = _known_answer_targets(ner_targets, [PLANTED, *DECOYS], 1)
    res = ketharmad.balance(targets, bots="random", budget=150_000, params={PLANTED: 1}, seed=0)
    best = res.best_point
    assert list(best) == [PLANTED], res
    assert abs(best[PLANTED] - 4) <= 1, res
    # the detuned start is outside a band, the proposal brings every NER pair back in
    assert not res.before["in_band"].all()
    assert res.after["in_band"].all(), res
    # the ablation of the single edit shows it matters: its interval excludes 0
    e = res.edits.row(0, named=True)
    assert e["parameter"] == PLANTED and e["old"] == 1 and e["new"] == best[PLANTED]
    assert e["effect_ci_high"] < 0 or e["effect_ci_low"] > 0
    # the exported card file carries the edit as its new default
    assert res.overrides == {PLANTED: best[PLANTED]}


def _planted_two(bots: str, budget: int) -> ketharmad.BalanceResult:
    pairs = NER_PAIRS + [("tisza", "osszefogas"), ("tisza", "radikalisok")]
    targets = _known_answer_targets(
        _measured_targets(bots, pairs, 0.04),
        [PLANTED, "tis_magyar_peter.influence", "ner_rogan_antal.influence"],
        2,
    )
    return ketharmad.balance(
        targets,
        bots=bots,
        budget=budget,
        params={PLANTED: 1, "tis_magyar_peter.influence": 4},
        seed=0,
    )


def test_known_answer_two_edits_random_bot() -> None:
    """Two planted edits (Orbán's cost 4 -> 1 lifts NER; Tisza-sziget's Credibility 1 -> 0
    sinks Tisza by 7-9 points with the random bot): with K = 2 and two decoys, the card-level
    repair (the default strategy) finds both and moves each back to within one step (the
    default max_change of 2 steps lets Orbán's cost reach 3)."""
    pairs = NER_PAIRS + [("tisza", "osszefogas"), ("tisza", "radikalisok")]
    targets = _known_answer_targets(
        _measured_targets("random", pairs, 0.04),
        [
            PLANTED,
            "tis_tisza_sziget.credibility",
            "tis_magyar_peter.influence",
            "ner_rogan_antal.influence",
        ],
        2,
    )
    res = ketharmad.balance(
        targets, bots="random", budget=150_000, seed=0,
        params={PLANTED: 1, "tis_tisza_sziget.credibility": 0},
    )  # fmt: skip
    assert res.strategy == "cards" and "repair" in set(res.history["stage"])
    best = res.best_point
    assert set(best) == {PLANTED, "tis_tisza_sziget.credibility"}, res
    assert abs(best[PLANTED] - 4) <= 1 and abs(best["tis_tisza_sziget.credibility"] - 1) <= 1, res
    # each edit's ablation interval excludes 0
    assert all(
        r["effect_ci_high"] < 0 or r["effect_ci_low"] > 0 for r in res.edits.iter_rows(named=True)
    )


@pytest.mark.slow
def test_known_answer_two_edits() -> None:
    """Two planted edits (Orbán's cost 4 -> 1, Magyar Péter's Influence 1 -> 4; heuristic
    bot): balance with K = 2 finds both and moves each back to within one step."""
    res = _planted_two("heuristic", 150_000)
    best = res.best_point
    assert set(best) == {PLANTED, "tis_magyar_peter.influence"}, res
    assert abs(best[PLANTED] - 4) <= 1 and abs(best["tis_magyar_peter.influence"] - 1) <= 1, res


def test_bounds_frozen_and_limits_respected(ner_targets: dict) -> None:
    """Frozen parameters never move, kind bounds and max_change hold, K and N hold, and the
    starting point's params= values are the 'old' values."""
    targets = {
        "two_player": {"others": False, "pairs": ner_targets},
        "change": {
            "allow": [
                "ner_orban_viktor.*",
                "ner_rogan_antal.influence",
                "tis_magyar_peter.influence",
            ],
            "freeze": [PLANTED, "ner_orban_viktor.cost_f", "ner_orban_viktor.cost_m"],
            "max_edits": 2,
            "max_edits_per_card": 1,
            "kinds": {"influence": {"max_change": 1}},
        },
    }
    res = ketharmad.balance(
        targets,
        bots="random",
        budget=12_000,
        params={PLANTED: 1},
        seed=3,
        settings={"robustness_bots": None},
    )
    assert PLANTED not in res.space and "ner_orban_viktor.cost_f" not in res.space
    assert "ner_orban_viktor.copies" not in res.space  # a copies change cannot keep 31 cards
    defaults = dict(
        zip(
            *ketharmad.parameters().select("name", "default").to_dict(as_series=False).values(),
            strict=True,
        )
    )
    for key in res.history["point"].unique().to_list():
        point = json.loads(key)
        assert PLANTED not in point
        assert len(point) <= 2
        cards = [n.split(".")[0] for n in point]
        assert len(cards) == len(set(cards))  # N = 1 per card
        for n, v in point.items():
            if n.endswith(".influence"):
                assert abs(v - defaults[n]) <= 1
    assert res.overrides[PLANTED] == 1  # the fixed starting value is kept in the overrides


def test_same_seed_same_result_any_threads(tmp_path: Path) -> None:
    """Same seed -> the same proposals and evaluations with 1 and 2 threads."""
    kw = dict(bots="random", budget=6_000, seed=5, settings={"robustness_bots": None})
    a = ketharmad.balance(SMALL, **kw, run=dict(threads=1))
    b = ketharmad.balance(SMALL, **kw, run=dict(threads=2))
    assert a.proposals.equals(b.proposals)
    assert a.history.equals(b.history)
    assert a.best_point == b.best_point
    c = ketharmad.balance(SMALL, **{**kw, "seed": 6}, run=dict(threads=2))
    assert not c.history.equals(a.history)  # the seed matters


class _Stop(Exception):
    pass


def test_resume_after_interruption_gives_the_uninterrupted_result(
    tmp_path: Path, monkeypatch
) -> None:
    """Interrupt after k evaluations (via the hook), resume with the same journal: the
    finished evaluations are not played again and the result equals an uninterrupted run."""
    kw = dict(bots="random", budget=6_000, seed=2, settings={"robustness_bots": None})
    full = ketharmad.balance(SMALL, **kw)
    journal = tmp_path / "j.jsonl"
    calls = []

    def stop_after(n: int) -> None:
        calls.append(n)
        if n >= 5:
            raise _Stop()

    monkeypatch.setattr(_balance, "_after_evaluation", stop_after)
    with pytest.raises(_Stop):
        ketharmad.balance(SMALL, journal=journal, **kw)
    monkeypatch.setattr(_balance, "_after_evaluation", None)
    lines = journal.read_text().splitlines()
    assert len(lines) == 1 + 5  # header + the five finished evaluations
    # a write cut short by a kill leaves a partial line: it is dropped on resume
    with open(journal, "a") as f:
        f.write('{"key": "partial')
    resumed = ketharmad.balance(SMALL, journal=journal, **kw)
    assert resumed.evaluations_played == full.evaluations_played - 5
    assert resumed.games == full.games
    assert resumed.proposals.equals(full.proposals)
    assert resumed.history.equals(full.history)
    assert resumed.best_point == full.best_point
    # a finished journal replays everything: nothing is played
    again = ketharmad.balance(SMALL, journal=journal, **kw)
    assert again.evaluations_played == 0 and again.history.equals(full.history)
    # another seed cannot reuse it
    with pytest.raises(ValueError, match="another run"):
        ketharmad.balance(SMALL, journal=journal, **{**kw, "seed": 3})


def test_keyboard_interrupt_keeps_the_journal_valid(tmp_path: Path, monkeypatch) -> None:
    journal = tmp_path / "j.jsonl"

    def interrupt(n: int) -> None:
        if n >= 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(_balance, "_after_evaluation", interrupt)
    with pytest.raises(KeyboardInterrupt):
        ketharmad.balance(
            SMALL, journal=journal, bots="random", budget=6_000, settings={"robustness_bots": None}
        )
    lines = journal.read_text().splitlines()
    assert len(lines) == 4 and all(json.loads(line) for line in lines)


@pytest.mark.parametrize(
    "doc, field",
    [
        ({"two_player": {"tolerance": "wide"}}, "targets.two_player.tolerance"),
        (
            {"two_player": {"others": False, "pairs": {"ner-nobody": 0.5}}},
            "targets.two_player.pairs.ner-nobody",
        ),
        (
            {"two_player": {"others": False, "pairs": {"ner-tisza": 0.5, "tisza-ner": 0.5}}},
            "targets.two_player.pairs.tisza-ner",
        ),
        (
            {"two_player": {"others": False, "pairs": {"ner-tisza": 1.5}}},
            "targets.two_player.pairs.ner-tisza",
        ),
        (
            {"four_player": {"factions": {"osszefogas": {"target": 0.31, "tol": 0.1}}}},
            "targets.four_player.factions.osszefogas",
        ),
        ({"turns": {"low": 8}}, "targets.turns"),
        ({"change": {"max_edits": 0}}, "targets.change.max_edits"),
        ({"change": {"kinds": {"influence": {"step": 0}}}}, "targets.change.kinds.influence.step"),
        ({"change": {"kinds": {"colour": {"step": 1}}}}, "targets.change.kinds.colour"),
        ({"change": {"allow": "nothing_matches.*"}}, "targets.change.allow"),
        ({"tarrgets": {}}, "targets: unknown key"),
    ],
)
def test_bad_targets_name_the_field(doc: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field.replace(".", r"\.")):
        t = load_targets(doc)
        t.space(ketharmad.parameters())


def test_bad_targets_file(tmp_path: Path) -> None:
    p = tmp_path / "t.toml"
    p.write_text("[two_player]\ntarget = [")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_targets(p)
    p.write_text("[change]\nmax_edits_per_card = -1\n")
    with pytest.raises(ValueError, match=r"targets\.change\.max_edits_per_card"):
        load_targets(p)
    with pytest.raises(ValueError, match="not found"):
        load_targets(tmp_path / "missing.toml")
    # the same caps as every TOML input (issue 9 item 10): nesting and size
    p.write_text("a = " + "[" * 40 + "]" * 40 + "\n")
    with pytest.raises(ValueError, match="nested deeper than 32"):
        load_targets(p)
    p.write_text("# " + "x" * (1 << 20) + "\n")
    with pytest.raises(ValueError, match="larger than|exceeds|MiB|bytes"):
        load_targets(p)


def test_targets_defaults_and_example_file() -> None:
    t = load_targets(None)
    two = [m for m in t.metrics if m.kind == "2p"]
    four = [m for m in t.metrics if m.kind == "4p"]
    assert len(two) == 6 and all((m.low, m.high) == (0.45, 0.55) for m in two)
    assert len(four) == 4 and all(
        abs(m.low - 0.21) < 1e-9 and abs(m.high - 0.29) < 1e-9 for m in four
    )
    ex = load_targets(HERE.parent / "examples" / "targets.toml")
    osz = next(m for m in ex.metrics if m.name == "4p osszefogas")
    assert osz.target == 0.31
    assert any(m.kind == "start" for m in ex.metrics)
    space = ex.space(ketharmad.parameters())
    names = {p.name for p in space}
    assert not any(n.startswith(("rules.", "tok_", "ev_")) for n in names)
    assert all(p.low >= 0 and p.high <= 8 for p in space if p.kind == "cost_generic")


def test_rules_parameters_only_when_listed() -> None:
    params = ketharmad.parameters()
    t = load_targets({"change": {"allow": ["*"]}})
    assert not any(p.name.startswith("rules.") for p in t.space(params))
    t = load_targets({"change": {"allow": ["rules.starting_support"]}})
    assert [p.name for p in t.space(params)] == ["rules.starting_support"]


def test_write_card_data_applies_each_field_kind(tmp_path: Path) -> None:
    from ketharmad.game.data import load_card_data
    from ketharmad.lab.balance.search import write_card_data

    over = {
        "ner_orban_viktor.cost_generic": 3, "ner_orban_viktor.influence": 6,
        "ner_meszaros_lorinc.forint": 3, "ner_meszaros_lorinc.scandal": 2, "rules.hand_limit": 6,
    }  # fmt: skip
    out = write_card_data(load_card_data(None), over, tmp_path / "c.toml")
    assert out["not_in_file"] == {}, "rule parameters go into the file's [params] table"
    p = ketharmad.parameters(card_data=tmp_path / "c.toml")
    got = dict(zip(p["name"].to_list(), p["default"].to_list(), strict=True))
    for n, v in over.items():
        assert got[n] == v
    base = ketharmad.parameters()
    changed = base.join(p, on="name").filter(pl.col("default") != pl.col("default_right"))
    assert sorted(changed["name"].to_list()) == sorted(over)
    # the file plays the games of the overrides
    a = ketharmad.simulate(["ner", "tisza"], "random", 50, seed=3, card_data=tmp_path / "c.toml")
    b = ketharmad.simulate(["ner", "tisza"], "random", 50, seed=3, params=over)
    assert a.games.equals(b.games)


def test_cli_balance_smoke(tmp_path: Path, capsys) -> None:
    from ketharmad.cli import main

    out = tmp_path / "run"
    assert main([
        "balance", str(SMALL), "--bots", "random", "--budget", "4000", "--out", str(out),
        "--journal", str(tmp_path / "j.jsonl"), "--no-plots", "--threads", "2",
    ]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "best:" in text and "before [95% CI]" in text and "2p ner-tisza" in text
    report = (out / "report.md").read_text()
    assert "## Before and after" in report and "## Proposals" in report
    cards = out / "cards_balanced.toml"
    assert cards.exists()
    ketharmad.cards(card_data=cards)  # a valid card file
    assert list((out / "balance_edits").glob("*.parquet"))
    with pytest.raises(SystemExit) as e:
        main(["balance", str(tmp_path / "missing.toml")])
    assert e.value.code == 2
    assert "targets file not found" in capsys.readouterr().err
    # --repair-from NAME=VALUE reaches settings.repair_from: a name the targets do not allow
    # is refused by name, before any game
    with pytest.raises(SystemExit) as e:
        main(["balance", str(SMALL), "--bots", "random", "--budget", "4000",
              "--repair-from", "ner_nope.influence=2"])  # fmt: skip
    assert e.value.code == 2
    assert "'ner_nope.influence' is not a parameter the targets" in capsys.readouterr().err


def test_four_player_start_and_turns_metrics() -> None:
    """4-player shares, the start player's rate and median turns per player are measured on
    their own games; the four shares and the no-winner games add up to every game."""
    targets = {
        "four_player": {"factions": {"osszefogas": 0.31}},
        "start_player": {"low": 0.4, "high": 0.7},
        "turns": {"low": 5, "high": 30},
        "change": {
            "allow": ["ner_orban_viktor.cost_generic", "osz_toth_bertalan.credibility"],
            "max_edits": 1,
        },
    }
    res = ketharmad.balance(
        targets,
        bots="random",
        budget=8_000,
        settings={"games_2p": 10, "games_4p": 1, "robustness_bots": None},
    )
    before = {r["metric"]: r for r in res.before.iter_rows(named=True)}
    shares = [before[f"4p {f}"]["value"] for f in ketharmad.FACTIONS]
    assert 0.9 <= sum(shares) <= 1.0 + 1e-9
    assert before["4p osszefogas"]["target"] == 0.31 and before["4p ner"]["target"] == 0.25
    assert 0.0 < before["start player"]["value"] < 1.0
    assert 5 <= before["median turns per player"]["value"] <= 40
    assert before["median turns per player"]["ci_low"] <= before["median turns per player"]["value"]


def test_without_optuna_the_search_is_skipped_and_said(monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "optuna", None)  # import optuna -> ImportError
    res = ketharmad.balance(SMALL, bots="random", budget=4_000,
                            settings={"robustness_bots": None, "strategy": "descent"})  # fmt: skip
    assert any("search skipped: Optuna is not installed" in n for n in res.notes)
    assert (res.history["stage"] == "search").sum() == 0
    assert res.best.height <= 1


def test_report_with_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    res = ketharmad.balance(SMALL, bots="random", budget=4_000, settings={"robustness_bots": None})
    report = res.write_report(tmp_path, plots=True)
    text = report.read_text()
    for png in (
        "balance_before.png",
        "balance_after.png",
        "balance_pareto.png",
        "balance_sensitivity.png",
    ):
        assert (tmp_path / png).stat().st_size > 1000
        assert f"({png})" in text
    assert "2p ner-tisza" in text


def test_confirmation_moves_to_fresh_holdout_games_when_the_first_cannot_decide(
    monkeypatch,
) -> None:
    """Confirm (docs/balance.md): when no candidate is confirmed on the first holdout but some
    have every estimate in band, those are played on fresh holdout blocks with the budget
    left and judged on them alone; `after`, `before` and `holdout_games` are that second
    holdout's."""
    from ketharmad.lab.balance.evaluate import HOLDOUT_BLOCK

    monkeypatch.setattr(_balance, "CONFIRM_FIRST", 1)
    res = ketharmad.balance(
        SMALL, bots="random", budget=20_000, seed=2,
        settings={"robustness_bots": None, "strategy": "descent"},
    )  # fmt: skip
    assert any("fresh holdout games" in n for n in res.notes), res.notes
    conf = res.history.filter(pl.col("stage") == "confirm")
    first = f"{HOLDOUT_BLOCK}-{HOLDOUT_BLOCK + 1}"
    assert first in set(conf["blocks"]) and conf["blocks"].n_unique() == 2
    second = next(b for b in conf["blocks"] if b != first)
    b0, b1 = (int(x) for x in second.split("-"))
    assert b0 == HOLDOUT_BLOCK + 1 and b1 - b0 >= 1  # the next blocks, none of the first
    assert (
        res.holdout_games == (b1 - b0) * 200 == conf.filter(pl.col("blocks") == second)["games"][0]
    )
    # the second holdout spends what the budget has left (the ablation's share kept)
    assert res.games >= 0.9 * 20_000
    best = ketharmad.lab.balance.evaluate.point_key(res.best_point)
    for table, point in ((res.after, best), (res.before, "{}")):
        row = conf.filter((pl.col("blocks") == second) & (pl.col("point") == point)).row(
            0, named=True
        )
        assert (
            table["games"].to_list() == [(b1 - b0) * 100] * table.height
        )  # 100 games a block per pair metric
        for r in table.iter_rows(named=True):
            assert r["value"] == pytest.approx(row[f"m:{r['metric']}"], abs=1e-12)


def test_a_further_holdout_spends_the_budget_when_no_candidate_is_in_band(monkeypatch) -> None:
    """Issue 24, item 3: when no candidate confirms and none even has every estimate in band on
    the first holdout (here a band no allowed edit reaches: NER-Tisza, about 16 % with random
    bots, asked at 35 % +- 1), the budget left still goes to a further, fresh holdout of the
    candidates likeliest to be in band instead of the run stopping with it unspent."""
    monkeypatch.setattr(_balance, "CONFIRM_FIRST", 1)
    targets = {
        "two_player": {"tolerance": 0.01, "others": False, "pairs": {"ner-tisza": 0.35}},
        "change": {"allow": ["ner_orban_viktor.cost_generic", "ner_rogan_antal.influence",
                             "tis_magyar_peter.influence"], "max_edits": 2, "max_change": 3},
    }  # fmt: skip
    res = ketharmad.balance(
        targets, bots="random", budget=60_000, seed=3, settings={"robustness_bots": None}
    )
    assert not res.best_confirmed, res
    note = next(n for n in res.notes if "fresh holdout games" in n)
    assert "likeliest to be in band (no candidate with edits had every estimate in band)" in note, (
        note
    )
    conf = res.history.filter(pl.col("stage") == "confirm")
    assert conf["blocks"].n_unique() == 2
    second = conf.filter(pl.col("blocks") != conf["blocks"][0])
    assert second.height >= 2 and "{}" in set(second["point"])  # the start and a candidate
    assert all(v < 0.34 for v in second["m:2p ner-tisza"])  # none reached the band
    # the further holdout spent the budget left (the ablation's share kept)
    assert res.games >= 0.9 * 60_000, res.games


def test_a_further_holdout_of_the_start_when_no_candidate_has_edits(monkeypatch) -> None:
    """Issue 24, item 3: when the repair takes no edit (here the only allowed number is a
    Radikálisok card's, which a NER-Tisza game never deals, so no move changes a game) and the
    start is not confirmed (NER-Tisza, about 16 % with random bots, asked at 35 % +- 1), the
    budget left goes to a further holdout of the start, so the answer "no edit, out of band"
    rests on it, instead of the run stopping with the budget unspent."""
    monkeypatch.setattr(_balance, "CONFIRM_FIRST", 1)
    targets = {
        "two_player": {"tolerance": 0.01, "others": False, "pairs": {"ner-tisza": 0.35}},
        "change": {"allow": ["rad_sneider_tamas.cost_generic"]},
    }
    res = ketharmad.balance(
        targets, bots="random", budget=60_000, seed=3, settings={"robustness_bots": None}
    )
    assert not res.best_confirmed and res.best_point == {}, res
    note = next(n for n in res.notes if "fresh holdout games" in n)
    assert "the starting point (no candidate has edits)" in note, note
    conf = res.history.filter(pl.col("stage") == "confirm")
    assert conf["blocks"].n_unique() == 2 and set(conf["point"]) == {"{}"}
    second = conf.filter(pl.col("blocks") != conf["blocks"][0])
    assert res.holdout_games == second["games"][0] and second["m:2p ner-tisza"][0] < 0.34
    assert res.games >= 0.9 * 60_000, res.games


def test_confirmation_on_the_first_holdout_when_it_decides() -> None:
    """When the first holdout confirms (here the starting point meets every band), there is
    no second holdout."""
    res = ketharmad.balance(
        SMALL, bots="random", budget=20_000, seed=2, settings={"robustness_bots": None}
    )
    assert res.best_confirmed and not res.best_point, res
    assert not any("fresh holdout games" in n for n in res.notes)
    conf = res.history.filter(pl.col("stage") == "confirm")
    assert conf["blocks"].n_unique() == 1


@pytest.mark.parametrize("with_journal", [False, True])
def test_a_bounded_cache_gives_the_same_run(
    tmp_path: Path, monkeypatch, with_journal: bool
) -> None:
    """Issue 11 item 2: the evaluator keeps at most CACHE_BYTES of outcomes in memory and the
    journal only each entry's place in its file; an evaluation that left the cache is read
    back from the journal or played again, and the run is the same."""
    from ketharmad.lab.balance import evaluate as _ev

    kw = dict(bots="random", budget=6_000, seed=5, settings={"robustness_bots": None})
    full = ketharmad.balance(SMALL, journal=tmp_path / "a.jsonl" if with_journal else None, **kw)
    monkeypatch.setattr(_ev, "CACHE_BYTES", 1)  # keep one evaluation only
    small = ketharmad.balance(SMALL, journal=tmp_path / "b.jsonl" if with_journal else None, **kw)
    assert small.best_point == full.best_point
    assert small.history.equals(full.history) and small.proposals.equals(full.proposals)
    assert small.edits.equals(full.edits) and small.after.equals(full.after)
    if with_journal:
        assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
        j = _ev.Journal(tmp_path / "b.jsonl", {})  # an index of offsets, no entries in memory
        lines = (tmp_path / "b.jsonl").read_bytes().count(b"\n")
        assert not hasattr(j, "entries") and len(j.index) == lines - 1 > 0
        key = next(iter(j.index))
        assert j.get(key)["key"] == key
        j.close()


def test_robustness_search_sample(tmp_path: Path) -> None:
    """`.robustness_search`: every metric before and after the edits with the search bot on
    every seat, played on the screen's blocks (the history has both points under that bot)."""
    sb = {"kind": "search", "iterations": 2}
    # Orbán's cost planted at 1 (from 4): NER too strong against both bands, one edit repairs it
    targets = {"two_player": {"others": False, "pairs": {"ner-tisza": {"target": 0.14, "tolerance": 0.05},
                                        "ner-osszefogas": {"target": 0.30, "tolerance": 0.05}}},
               "change": {"allow": [PLANTED, "tis_magyar_peter.influence", "ner_rogan_antal.influence"],
                          "max_edits": 1}}  # fmt: skip
    res = ketharmad.balance(
        targets,
        bots="random",
        budget=60_000,
        seed=2,  # a seed whose run makes an edit (the subject is the sample)
        params={PLANTED: 1},
        settings={"robustness_bots": None, "robustness_search": sb},
    )
    assert res.best.height >= 1, res.notes
    t = res.robustness_search
    assert (
        t is not None
        and t.height == 2
        and set(t["metric"]) == {"2p ner-tisza", "2p ner-osszefogas"}
    )
    assert any(n.startswith("search sample (") for n in res.notes)
    h = res.history.filter((pl.col("stage") == "robustness") & (pl.col("bots") != ""))
    assert h.height == 2 and set(h["point"]) == {
        "{}",
        ketharmad.lab.balance.evaluate.point_key(res.best_point),
    }
    after = h.filter(pl.col("point") != "{}").row(0, named=True)
    before = h.filter(pl.col("point") == "{}").row(0, named=True)
    for r in t.iter_rows(named=True):
        assert r["after"] == pytest.approx(after[f"m:{r['metric']}"], abs=1e-12)
        assert r["before"] == pytest.approx(before[f"m:{r['metric']}"], abs=1e-12)
        assert r["games"] > 0 and r["after_ci_low"] <= r["after"] <= r["after_ci_high"]
    # "auto" takes no search sample for the random bot, and None skips it
    assert (
        ketharmad.balance(
            SMALL, bots="random", budget=4_000, settings={"robustness_bots": None}
        ).robustness_search
        is None
    )
