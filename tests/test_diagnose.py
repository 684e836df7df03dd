"""ketharmad.diagnose (issue 24 item 1): which card is off, ranked per faction, from card
records and restricted play; a planted card is found; other games are refused by name."""

from __future__ import annotations

import ketharmad
import polars as pl
import pytest
from ketharmad.cli.main import main
from ketharmad.lab.diagnose import SUSPECT_COLUMNS, WEIGHTS

PLANT = "rad_radikalis_aktivista"


@pytest.fixture(scope="module")
def small() -> ketharmad.DiagnoseResult:
    return ketharmad.diagnose(["tisza"], games=300, seed=3, restricted=100, run={"threads": 2})


@pytest.mark.parametrize("game", ["osztrakon", "schotten_totten_2"])
def test_other_games_are_refused_naming_the_game_and_why(game: str) -> None:
    with pytest.raises(ValueError, match=f"game='{game}' has none: its cards"):
        ketharmad.diagnose(game=game)
    with pytest.raises(ValueError, match=f"game='{game}' has none"):
        ketharmad.diagnose(game=ketharmad.load_game(game))


def test_cli_refuses_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["diagnose", "--game", "osztrakon"])
    assert e.value.code == 2
    assert "game='osztrakon' has none" in capsys.readouterr().err


@pytest.mark.parametrize("decks", [["ner+tisza"], ["ner", "ner"], "nobody", []])
def test_bad_factions_are_refused(decks: object) -> None:
    with pytest.raises(ValueError, match="faction|twice"):
        ketharmad.diagnose(decks, games=10)  # type: ignore[arg-type]


def test_one_row_per_own_card_ranked_per_faction(small: ketharmad.DiagnoseResult) -> None:
    s = small.suspects
    assert tuple(s.columns) == SUSPECT_COLUMNS
    own = ketharmad.cards().filter(pl.col("faction") == "tisza")
    assert sorted(s["card"].to_list()) == sorted(own["id"].to_list())
    assert s["rank"].to_list() == list(range(1, own.height + 1))
    assert s["suspicion"].is_sorted(descending=True)
    # 3 pairings x 300 games, then the baseline and one point per card with a cost, x 3 x 100
    costed = own.filter(pl.col("type") != "base").height
    assert small.pairings == [["tisza", o] for o in ketharmad.FACTIONS if o != "tisza"]
    assert small.n_games == 3 * 300 + (1 + costed) * 3 * 100
    bases = s.filter(pl.col("type") == "base")
    assert bases["restricted_delta"].null_count() == bases.height  # no cost to raise
    others = s.filter(pl.col("type") != "base")
    assert others["restricted_delta"].null_count() == 0
    assert (others["restricted_ci_low"] <= others["restricted_delta"]).all()
    assert (s["iwd_ci_low"] <= s["iwd"]).all() and (s["iwd"] <= s["iwd_ci_high"]).all()


def test_the_score_is_the_documented_weighted_stouffer_sum(small: ketharmad.DiagnoseResult) -> None:
    r = small.suspects.row(0, named=True)
    zs = {k: r[f"z_{k}"] for k in WEIGHTS if r[f"z_{k}"] is not None}
    strength = sum(WEIGHTS[k] * z for k, z in zs.items()) / sum(WEIGHTS[k] ** 2 for k in zs) ** 0.5
    assert r["strength"] == pytest.approx(strength)
    sign = {"too strong": 1, "too weak": -1}.get(r["direction"])
    assert r["suspicion"] == pytest.approx(abs(strength) if sign is None else sign * strength)


def test_restricted_play_means_the_card_is_never_played() -> None:
    """The restricted-play point (the card's cost_generic at its maximum) leaves the card in
    the deck but unplayable: the faction never plays it."""
    ban = {f"{PLANT}.cost_generic": 20}
    t = ketharmad.card_stats(decks=["radikalisok", "ner"], games=400, seed=1, params=ban).table
    row = t.filter((pl.col("faction") == "radikalisok") & (pl.col("card") == PLANT)).row(
        0, named=True
    )
    assert row["play_count"] == 0 and row["in_hand_games"] > 0


def test_restricted_zero_leaves_the_evidence_out() -> None:
    r = ketharmad.diagnose(["ner"], games=200, seed=1, restricted=0)
    assert r.suspects["restricted_delta"].null_count() == r.suspects.height
    assert r.n_games == 3 * 200
    assert r.suspects["suspicion"].null_count() == 0


@pytest.mark.parametrize("seed", [1, 2])
def test_a_large_planted_influence_ranks_first_in_its_faction(seed: int) -> None:
    """Radikális aktivista's Influence 1 -> 6 on the packaged set, 800 games per pairing
    (restricted play 200): measured rank 1 for seeds 1-6 (docs/diagnose.md); asserted top 3."""
    r = ketharmad.diagnose(["radikalisok"], games=800, seed=seed, restricted=200,
                           params={f"{PLANT}.influence": 6})  # fmt: skip
    assert r.rank_of(PLANT) <= 3
    assert r.suspects.row(0, named=True)["direction"] == "too strong"


@pytest.mark.slow
def test_a_small_planted_influence_ranks_in_its_factions_top_3() -> None:
    """Influence 1 -> 3, 2,000 games per pairing, seed 1: measured rank 2 of 20."""
    r = ketharmad.diagnose(["radikalisok"], games=2000, seed=1, params={f"{PLANT}.influence": 3})
    assert r.rank_of(PLANT) <= 3


def test_text_markdown_and_parquet(small: ketharmad.DiagnoseResult, tmp_path: object) -> None:
    assert "tisza" in small.text() and "suspicion" in small.text()
    md = small.to_markdown()
    assert md.startswith("# Diagnosis") and "## tisza" in md
    written = small.write_parquet(tmp_path, run_id="d1")
    assert set(written) == {"diagnose_suspects", "diagnose_cards", "runs"}
    back = pl.read_parquet(written["diagnose_suspects"])
    assert back.height == small.suspects.height and (back["run_kind"] == "diagnose").all()
    assert small.top("tisza", 3).height == 3
    with pytest.raises(ValueError, match="not diagnosed"):
        small.top("ner")


def test_cli_runs_and_prints_the_ranking(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "--decks", "osszefogas", "--games", "200", "--restricted", "0",
                 "--threads", "2"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert out.startswith("DiagnoseResult(1 faction(s), 3 pairings x 200 games")
    assert "osszefogas (win rate" in out


def test_the_same_seed_gives_the_same_ranking_for_any_thread_count() -> None:
    a = ketharmad.diagnose(["ner"], games=150, seed=5, restricted=50, run={"threads": 1})
    b = ketharmad.diagnose(["ner"], games=150, seed=5, restricted=50, run={"threads": 2})
    assert a.suspects.equals(b.suspects)


def test_the_suspects_mark_the_cards_the_file_says_were_edited_last(tmp_path) -> None:
    """Issue 24 item 2: an exported card file names its overrides in its header; the
    diagnosis marks those cards (``changed_recently``); the same file with its comments
    stripped (as benches/planted.py writes it) marks none."""
    from ketharmad.results.export import edit_history

    path = tmp_path / "edited.toml"
    ketharmad.export_card_data(path, params={"rad_novak_elod.influence": 0}, overwrite=True)
    text = path.read_text()
    assert edit_history(text) == {"rad_novak_elod": ["influence"]}
    res = ketharmad.diagnose(
        ["radikalisok"], games=300, restricted=0, bots="random", card_data=path
    )
    marked = res.suspects.filter(pl.col("changed_recently"))["card"].to_list()
    assert marked == ["rad_novak_elod"]
    assert "changed" in res.text()
    stripped = tmp_path / "stripped.toml"
    stripped.write_text(
        "".join(line + "\n" for line in text.splitlines() if not line.startswith("#"))
    )
    assert edit_history(stripped.read_text()) == {}
    res2 = ketharmad.diagnose(
        ["radikalisok"], games=300, restricted=0, bots="random", card_data=stripped
    )
    assert not res2.suspects["changed_recently"].any()
