"""The designer's loop (issue 10, item 7): card ids in the outputs, ``params --match`` by card
name, params files, ``cards --export`` / ``export_card_data``, readable sweeps."""

from __future__ import annotations

import tomllib
from pathlib import Path

import ketharmad
import polars as pl
import pytest
from ketharmad.cli import main

# one override of every kind of parameter (the names of rust/cards/params.rs `registry`)
EVERY_KIND = {
    "ner_base_kozbeszerzes.copies": 3,  # copies (4 -> 3; the base count stays 13: +1 below)
    "ner_base_stadion.copies": 4,  # 3 -> 4
    "ner_orban_viktor.cost_generic": 3,  # the four printed cost fields
    "ner_orban_viktor.cost_f": 0,
    "ner_orban_viktor.cost_m": 2,
    "ner_orban_viktor.influence": 7,  # stats
    "ner_orban_viktor.credibility": 4,
    "ner_matolcsy_gyorgy.scandal": 3,  # a numbered keyword's N
    "ner_meszaros_lorinc.scandal": 0,  # ... set to 0 (the keyword is dropped from the card)
    "osz_marki_zay_peter.expose": 3,  # Exposé N
    "ner_orban_viktor.influence_bonus": 2,  # a rules-text number (the card's params table)
    "ner_meszaros_lorinc.forint": 3,
    "rules.starting_support": 24,  # a rule int
    "rules.start_player_skips_first_draw": False,  # a rule bool
    "rules.expose_cost": "{2}{M}",  # a rule cost string
    "rules.swap_cost": "{0}",
    "rules.voter_takeover_credit": "active_player",  # a rule choice
    "keyword.unity.parties": 2,  # a keyword-wide number
    "keyword.joint_candidate.influence_bonus": 3,
}


def _every_kind() -> dict:
    return dict(EVERY_KIND)


def _value(row: dict):
    if row["kind"] in ("cost", "choice"):
        return row["default_str"]
    if row["kind"] == "bool":
        return bool(row["default"])
    return row["default"]


# ---------------------------------------------------------------- export


def test_export_round_trips_every_kind_and_plays_the_same_games(tmp_path):
    params = _every_kind()
    kinds = {r["name"]: r["kind"] for r in ketharmad.parameters().iter_rows(named=True)}
    assert {kinds[n] for n in params} == {"int", "bool", "cost", "choice"}
    out = ketharmad.export_card_data(tmp_path / "tuned.toml", params=params)
    assert out == tmp_path / "tuned.toml"
    # the file's defaults are the overridden values, every other parameter unchanged
    before = {r["name"]: _value(r) for r in ketharmad.parameters().iter_rows(named=True)}
    after = {r["name"]: _value(r) for r in ketharmad.parameters(out).iter_rows(named=True)}
    for name, value in params.items():
        if name == "ner_meszaros_lorinc.scandal":
            assert name not in after  # Scandal 0 is no keyword: the parameter is gone
        else:
            assert after[name] == value, name
    assert {n: v for n, v in after.items() if n not in params} == {
        n: v for n, v in before.items() if n not in params
    }
    doc = tomllib.loads(out.read_text(encoding="utf-8"))
    assert doc["params"]["rules.expose_cost"] == "{2}{M}"
    orban = next(c for c in doc["card"] if c["id"] == "ner_orban_viktor")
    assert orban["influence"] == 7 and orban["cost"] == {"generic": 3, "f": 0, "m": 2, "u": 0}
    assert orban["params"]["influence_bonus"] == 2
    meszaros = next(c for c in doc["card"] if c["id"] == "ner_meszaros_lorinc")
    assert "scandal" not in [k["name"] for k in meszaros["keywords"]]
    # bit-identical games: exported file vs the packaged file with params=
    for decks in (
        ["ner", "tisza"],
        ["osszefogas", "ner"],
        ["ner", "osszefogas", "tisza", "radikalisok"],
    ):
        a = ketharmad.simulate(decks, "heuristic", games=150, seed=11, params=params)
        b = ketharmad.simulate(decks, "heuristic", games=150, seed=11, card_data=out)
        assert a.games.equals(b.games), decks
        assert a.players.drop("bot").equals(b.players.drop("bot")), decks
    # ... and the overrides matter (not a trivially identical run)
    c = ketharmad.simulate(["ner", "tisza"], "heuristic", games=150, seed=11)
    assert not c.games.equals(
        ketharmad.simulate(["ner", "tisza"], "heuristic", games=150, seed=11, card_data=out).games
    )


def test_export_of_every_numbered_keyword_at_zero_plays_the_same_games(tmp_path):
    """A numbered keyword set to 0 (Scandal, Exposé, ...) exports, also where an ability
    reads its N (Szél Bernadett's "↷: Exposé N": the balancer proposed Exposé 0 and the
    export failed), and the file plays the games of params= (the keyword's N in play is 0)."""
    numbered = ("scandal", "expose", "movement", "sympathy", "defector", "lone")
    table = ketharmad.parameters()
    zero = {
        r["name"]: 0
        for r in table.iter_rows(named=True)
        if r["name"].rsplit(".", 1)[-1] in numbered and r["kind"] == "int" and r["default"] > 0
    }
    assert "osz_szel_bernadett.expose" in zero and len(zero) > 10
    out = ketharmad.export_card_data(tmp_path / "zero.toml", params=zero)
    for decks in (["osszefogas", "ner"], ["tisza", "radikalisok"], ["radikalisok", "osszefogas"]):
        a = ketharmad.simulate(decks, "heuristic", games=150, seed=5, params=zero)
        b = ketharmad.simulate(decks, "heuristic", games=150, seed=5, card_data=out)
        assert a.games.equals(b.games), decks
    one = ketharmad.export_card_data(
        tmp_path / "szel.toml", params={"osz_szel_bernadett.expose": 0}
    )
    got = {r["name"]: r["default"] for r in ketharmad.parameters(one).iter_rows(named=True)}
    assert got["osz_szel_bernadett.expose"] == 0


def test_export_of_an_export_and_params_file(tmp_path):
    first = ketharmad.export_card_data(tmp_path / "a.toml", params={"rules.hand_limit": 6})
    pfile = tmp_path / "p.toml"
    pfile.write_text("[rules]\nstarting_support = 22\n[ner_orban_viktor]\ninfluence = 6\n")
    second = ketharmad.export_card_data(tmp_path / "b.toml", params=str(pfile), card_data=first)
    got = {r["name"]: _value(r) for r in ketharmad.parameters(second).iter_rows(named=True)}
    assert got["rules.hand_limit"] == 6 and got["rules.starting_support"] == 22
    assert got["ner_orban_viktor.influence"] == 6
    a = ketharmad.simulate(["ner", "tisza"], games=200, seed=2,
                           params={"rules.hand_limit": 6, "rules.starting_support": 22,
                                   "ner_orban_viktor.influence": 6})  # fmt: skip
    b = ketharmad.simulate(["ner", "tisza"], games=200, seed=2, card_data=second)
    assert a.games.equals(b.games)


def test_export_refuses_bad_overrides_and_existing_files(tmp_path):
    with pytest.raises(ValueError, match="ner_orban_viktor.influence.*out of range"):
        ketharmad.export_card_data(tmp_path / "x.toml", params={"ner_orban_viktor.influence": 500})
    with pytest.raises(ValueError, match="unknown parameter 'ner_orban_viktor.nope'"):
        ketharmad.export_card_data(tmp_path / "x.toml", params={"ner_orban_viktor.nope": 1})
    with pytest.raises(ValueError, match="deck 'ner' must have 31 cards"):
        ketharmad.export_card_data(tmp_path / "x.toml", params={"ner_base_stadion.copies": 4})
    assert not (tmp_path / "x.toml").exists()
    ketharmad.export_card_data(tmp_path / "x.toml")
    with pytest.raises(ValueError, match="already exists"):
        ketharmad.export_card_data(tmp_path / "x.toml")
    ketharmad.export_card_data(tmp_path / "x.toml", params={"rules.hand_limit": 5}, overwrite=True)
    with pytest.raises(ValueError, match=r"\.toml"):
        ketharmad.export_card_data(tmp_path / "x.txt")


def test_card_file_params_table_errors(tmp_path):
    text = (Path(ketharmad.__file__).parent / "data" / "cards.toml").read_text(encoding="utf-8")
    cases = {
        '[params]\n"rules.nope" = 1\n': "unknown parameter 'rules.nope'",
        '[params]\n"rules.hand_limit" = 500\n': "rules.hand_limit.*out of range",
        '[params]\n"rules.expose_cost" = 3\n': "rules.expose_cost.*expected a value of kind cost",
        '[params]\n"ner_orban_viktor.influence" = 3\n': "only rules.\\* and keyword.\\*",
        '[params]\n"rules.hand_limit" = 1.5\n': "rules.hand_limit.*float",
    }
    for extra, message in cases.items():
        path = tmp_path / "bad.toml"
        path.write_text(text + "\n" + extra, encoding="utf-8")
        with pytest.raises(ValueError, match=message):
            ketharmad.parameters(path)
    # the nested form works like the quoted one
    path = tmp_path / "nested.toml"
    path.write_text(text + "\n[params.rules]\nhand_limit = 5\n", encoding="utf-8")
    row = ketharmad.parameters(path).filter(pl.col("name") == "rules.hand_limit").row(0, named=True)
    assert row["default"] == 5


def test_cli_cards_export(tmp_path, capsys):
    out = tmp_path / "c.toml"
    pfile = tmp_path / "p.toml"
    pfile.write_text('"ner_orban_viktor.influence" = 6\n"rules.hand_limit" = 6\n')
    assert main(["cards", "--export", str(out), "--params", str(pfile),
                 "--param", "ner_orban_viktor.influence=8"]) == 0  # fmt: skip
    assert "wrote" in capsys.readouterr().out
    got = {r["name"]: r["default"] for r in ketharmad.parameters(out).iter_rows(named=True)}
    assert got["ner_orban_viktor.influence"] == 8  # --param wins over the file
    assert got["rules.hand_limit"] == 6
    with pytest.raises(SystemExit) as e:
        main(["cards", "--export", str(out)])
    assert e.value.code == 2
    assert "already exists" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["cards", "--param", "rules.hand_limit=3"])
    assert "--export" in capsys.readouterr().err


# ---------------------------------------------------------------- params files


def test_params_file_forms_are_the_same_overrides(tmp_path):
    want = {"ner_orban_viktor.influence": 6, "rules.starting_support": 25,
            "rules.expose_cost": "{2}{M}", "rules.start_player_skips_first_draw": False}  # fmt: skip
    forms = {
        "flat.toml": '"ner_orban_viktor.influence" = 6\n"rules.starting_support" = 25\n'
                     '"rules.expose_cost" = "{2}{M}"\n"rules.start_player_skips_first_draw" = false\n',
        "dotted.toml": 'ner_orban_viktor.influence = 6\nrules.starting_support = 25\n'
                       'rules.expose_cost = "{2}{M}"\nrules.start_player_skips_first_draw = false\n',
        "tables.toml": '[ner_orban_viktor]\ninfluence = 6\n[rules]\nstarting_support = 25\n'
                       'expose_cost = "{2}{M}"\nstart_player_skips_first_draw = false\n',
    }  # fmt: skip
    ref = ketharmad.simulate(["ner", "tisza"], games=100, seed=4, params=want)
    for name, text in forms.items():
        path = tmp_path / name
        path.write_text(text)
        res = ketharmad.simulate(["ner", "tisza"], games=100, seed=4, params=str(path))
        assert res.params == want, name
        assert res.games.equals(ref.games), name
        res = ketharmad.simulate(["ner", "tisza"], games=100, seed=4, params=path)  # a Path
        assert res.games.equals(ref.games), name
    default = ketharmad.simulate(["ner", "tisza"], games=100, seed=4)
    assert not default.games.equals(ref.games)
    path = tmp_path / "tables.toml"
    # every entry point that takes params= takes the file
    log = ketharmad.play(["ner", "tisza"], seed=4, index=3, params=path)
    assert log.winner == ref.games["winner"][3]
    m = ketharmad.matchups(games_per_side=5, bots="random", params=path)
    assert m.params == want
    sw = ketharmad.sweep({"rules.hand_limit": [7, 6]}, games=10, bots="random", params=path)
    assert sw.params == want
    t = ketharmad.tournament(["random", "heuristic"], decks=["ner", "tisza"], games=4, params=path)
    assert t.pairs.height == 1
    batch = ketharmad.simulate(["ner", "tisza"], games=50, params=path, record_plays=True)
    assert ketharmad.card_stats(batch).table.height > 0


def test_params_file_errors_name_file_and_key(tmp_path):
    bad = {
        "x = [1, 2]\n": r"bad.toml: key 'x'.*array",
        "[rules]\nhand_limit = 1.5\n": r"bad.toml: key 'rules.hand_limit'.*float",
        "x = = 1\n": r"bad.toml is not valid TOML",
        "a = " + "[" * 40 + "]" * 40 + "\n": r"bad.toml is nested deeper than 32",
    }
    for text, message in bad.items():
        path = tmp_path / "bad.toml"
        path.write_text(text)
        with pytest.raises(ValueError, match=message):
            ketharmad.simulate(["ner", "tisza"], games=2, params=str(path))
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20) + "\n")
    with pytest.raises(ValueError, match="larger than 1 MiB"):
        ketharmad.simulate(["ner", "tisza"], games=2, params=big)
    with pytest.raises(ValueError, match="params file not found"):
        ketharmad.simulate(["ner", "tisza"], games=2, params=str(tmp_path / "missing.toml"))


def test_cli_params_file_and_param_override(tmp_path, capsys):
    path = tmp_path / "p.toml"
    path.write_text("[rules]\nstarting_support = 5\nhand_limit = 6\n")
    assert main(["simulate", "--games", "20", "--params", str(path),
                 "--param", "rules.starting_support=9"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "rules.starting_support=9, rules.hand_limit=6" in out
    path.write_text("[rules]\nstarting_supprt = 5\n")
    for argv in (["simulate", "--games", "2"], ["play"], ["matchups", "--games-per-side", "1"],
                 ["card-stats", "--games", "2"], ["bots", "random", "heuristic", "--games", "24"]):  # fmt: skip
        with pytest.raises(SystemExit) as e:
            main([*argv, "--params", str(path)])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert f"params file {path}: unknown parameter 'rules.starting_supprt'" in err, argv
        assert "rules.starting_support" in err  # the similar name


def test_cli_sweep_params_file(tmp_path, capsys):
    grid = tmp_path / "g.toml"
    grid.write_text('decks = ["ner", "tisza"]\nbots = "random"\n[grid]\n"rules.hand_limit" = [7, 5]\n'
                    '[params]\n"rules.starting_support" = 18\n')  # fmt: skip
    pfile = tmp_path / "p.toml"
    pfile.write_text('"rules.starting_support" = 15\n"rules.opening_hand" = 6\n')
    assert main(["sweep", str(grid), "--games", "10", "--params", str(pfile)]) == 0
    out = capsys.readouterr().out
    assert "per point" in out
    # precedence: the sweep file's [params] < --params FILE < --param
    from ketharmad.cli import _params
    from ketharmad.lab.sweep import load_sweep_file

    merged = {
        **load_sweep_file(str(grid))["params"],
        **_params(["rules.opening_hand=5"], str(pfile)),
    }
    assert merged == {"rules.starting_support": 15, "rules.opening_hand": 5}


# ---------------------------------------------------------------- finding things


def test_parameters_match_is_accent_and_case_insensitive(capsys):
    sets = []
    for text in ("Orbán", "orban", "ORBAN", "orbán viktor", "orban_viktor"):
        t = ketharmad.parameters(match=text)
        names = set(t["name"].to_list())
        assert "ner_orban_viktor.influence" in names and "ner_orban_viktor.copies" in names
        assert all(
            fold(n) or c for n, c in zip(t["name"].to_list(), t["card_name"].to_list(), strict=True)
        )
        sets.append(names)
    assert sets[0] == sets[1] == sets[2]
    assert sets[3] == sets[4] == {n for n in sets[0] if n.startswith("ner_orban_viktor.")}
    # by card name only: Hungarian accents in the name, none in the id
    t = ketharmad.parameters(match="Gulyás")
    assert set(t["card"].to_list()) == {"ner_gulyas_gergely"}
    assert set(t["card_name"].to_list()) == {"Gulyás Gergely"}
    assert ketharmad.parameters(match="no such card").height == 0
    for text in ("Orbán", "ORBAN"):
        assert main(["params", "--match", text]) == 0
        out = capsys.readouterr().out
        assert "ner_orban_viktor.influence" in out and "Orbán Viktor" in out
    with pytest.raises(SystemExit):
        main(["params", "--match", "zzz_nothing"])
    assert "no parameter, card id or card name contains 'zzz_nothing'" in capsys.readouterr().err


def fold(name: str) -> bool:
    return "orban" in name


def test_card_ids_beside_names(capsys, tmp_path):
    assert main(["cards", "--faction", "ner"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "Orbán Viktor" in ln)
    assert "ner_orban_viktor" in line
    batch = ketharmad.simulate(["ner", "tisza"], "heuristic", games=300, seed=1, record_plays=True)
    cs = ketharmad.card_stats(batch)
    text = repr(cs)
    rows = [ln for ln in text.splitlines() if ln.startswith("  ") and " pp" in ln]
    assert rows
    ids = set(cs.table["card"].to_list())
    names = dict(zip(cs.table["card"].to_list(), cs.table["name"].to_list(), strict=True))
    for ln in rows:  # every listed card shows its name and its id
        assert any(i in ln.split() and names[i] in ln for i in ids), ln
    ketharmad.write_report(cs, tmp_path, plots=False)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| Orbán Viktor | `ner_orban_viktor` |" in md


# ---------------------------------------------------------------- readable sweeps


@pytest.fixture(scope="module")
def ner_sweep() -> ketharmad.SweepResult:
    return ketharmad.sweep({"ner_orban_viktor.influence": [3, 5, 8]}, decks="all", games=60,
                           bots="heuristic", seed=3)  # fmt: skip


def test_sweep_baseline_is_the_current_value(ner_sweep):
    assert ner_sweep.baseline == 1  # influence 5 is the printed value
    assert ner_sweep.points["current"].to_list() == [False, True, False]
    sw = ketharmad.sweep({"ner_orban_viktor.influence": [3, 8]}, games=5, bots="random")
    assert sw.baseline == 0 and not sw.points["current"].any()
    # with params=, "current" means the card data plus those overrides
    sw = ketharmad.sweep({"ner_orban_viktor.influence": [5, 6]}, games=5, bots="random",
                         params={"ner_orban_viktor.influence": 6})  # fmt: skip
    assert sw.baseline == 1


def test_sweep_hides_matchups_the_parameter_cannot_affect(ner_sweep):
    t = ner_sweep.table
    no_ner = ~pl.col("matchup").str.contains("ner")
    assert t.filter(no_ner)["can_affect"].not_().all()
    assert t.filter(~no_ner)["can_affect"].all()
    # they really are unaffected: every game is the baseline's
    g = ner_sweep.games.filter(~pl.col("matchup").str.contains("ner"))
    base = g.filter(pl.col("point") == 1).drop("point")
    for p in (0, 2):
        assert g.filter(pl.col("point") == p).drop("point").equals(base)
    text = repr(ner_sweep)
    per_matchup = text.split("per matchup:")[1]
    assert "tisza vs osszefogas" not in per_matchup.split("hidden:")[0]
    assert "ner vs tisza" in per_matchup
    assert "hidden: 6 matchup(s)" in text
    # a rule parameter can affect every matchup
    sw = ketharmad.sweep({"rules.hand_limit": [7, 6]}, decks="all", games=5, bots="random")
    assert sw.table["can_affect"].all()
    assert (sw.summary["perspective"] == "seat 0").all() and (sw.summary["matchups"] == 12).all()


def test_sweep_summary_is_the_faction_view_of_the_paired_differences(ner_sweep):
    s = ner_sweep.summary
    assert s.height == 3 and s["perspective"].to_list() == ["ner"] * 3
    assert s["matchups"].to_list() == [6, 6, 6] and s["games"].to_list() == [360] * 3
    t = ner_sweep.table.filter(pl.col("can_affect"))
    for p in (0, 2):
        part = t.filter(pl.col("point") == p)
        ner_first = part.filter(pl.col("faction") == "ner")["diff"].to_list()
        ner_second = part.filter(pl.col("faction") != "ner")["diff"].to_list()
        expect = (sum(ner_first) - sum(ner_second)) / 6  # equal games per matchup
        row = s.filter(pl.col("point") == p).row(0, named=True)
        assert row["diff"] == pytest.approx(expect)
        assert row["diff_ci_low"] <= row["diff"] <= row["diff_ci_high"]
    base = s.filter(pl.col("baseline")).row(0, named=True)
    assert base["diff"] == 0 and base["point"] == 1
    text = repr(ner_sweep)
    assert "1 (baseline, current)" in text
    assert "swept: ner_orban_viktor.influence (Orbán Viktor)" in text


def test_sweep_difference_plot_lines(ner_sweep, tmp_path):
    from ketharmad.lab.sweep import sweep_differences

    d = sweep_differences(ner_sweep, "ner_orban_viktor.influence")
    assert sorted(d["line"].unique().to_list()) == [
        "ner – osszefogas",
        "ner – radikalisok",
        "ner – tisza",
    ]
    assert d.height == 9 and (d["games"] == 120).all()  # both seatings pooled
    assert (d.filter(pl.col("point") == 1)["diff"] == 0).all()
    t = ner_sweep.table
    row = d.filter((pl.col("line") == "ner – tisza") & (pl.col("point") == 2)).row(0, named=True)
    a = t.filter((pl.col("point") == 2) & (pl.col("matchup") == "ner vs tisza"))["diff"][0]
    b = t.filter((pl.col("point") == 2) & (pl.col("matchup") == "tisza vs ner"))["diff"][0]
    assert row["diff"] == pytest.approx((a - b) / 2)
    pytest.importorskip("matplotlib")
    ketharmad.write_report(ner_sweep, tmp_path)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Summary per point" in md and "| 1 (baseline, current) |" in md
    assert "hidden: 6 matchup(s)" in md
    png = tmp_path / "sweep_ner_orban_viktor_influence.png"
    assert png.stat().st_size > 10_000
    assert "sweep_summary" in ner_sweep._parquet_tables()


def test_sweep_plot_colours_are_distinct(ner_sweep, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import ketharmad.lab.sweep as lr

    seen = {}

    def keep(fig, path):
        ax = fig.axes[0]
        seen["colours"] = [c.lines[0].get_color() for c in ax.containers]
        seen["vlines"] = [ln for ln in ax.get_lines() if ln.get_linestyle() == ":"]
        return path

    monkeypatch.setattr(lr, "_save", keep)
    lr.plot_sweep_parameter(ner_sweep, "ner_orban_viktor.influence", tmp_path / "x.png")
    assert len(seen["colours"]) == 3 and len(set(seen["colours"])) == 3
    assert len(seen["vlines"]) == 1  # the baseline marker
    assert "current value (5)" in seen["vlines"][0].get_label()
