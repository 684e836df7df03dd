"""scripts/balanced_set.py over a ladder of bots (issue 27, item 3), in a tiny size: the first
run, the polish from its proposal, the independent check under every rung (and a further
search rung), the skill table and the health report side by side. The card file it writes
holds exactly the edits its page lists."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import ketharmad
import polars as pl

ROOT = Path(__file__).resolve().parents[1]


def test_ladder_run_writes_a_card_file_and_a_page_that_agree(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(
        '[change]\nallow = ["tis_tisza_sziget.*"]\nmax_edits = 2\nmax_change = 3\n'
        '[ladder]\nrungs = ["random", "heuristic"]\n',
        encoding="utf-8",
    )
    (tmp_path / "b.toml").write_text(
        '[change]\nallow = ["ner_kozmedia.*"]\nmax_edits = 1\nmax_change = 3\n'
        '[ladder]\nrungs = ["random", "heuristic"]\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    search = {"kind": "search", "iterations": 2}
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", str(ROOT / "scripts" / "balanced_set.py"),
         "--targets", str(tmp_path / "a.toml"), "--budget", "40000",
         "--polish-targets", str(tmp_path / "b.toml"), "--polish-budget", "30000", "--polish-from", "1",
         "--check-games", "20", "--check-games-4p", "24", "--check-games-slow", "4",
         "--check-games-4p-slow", "24", "--skill-games", "24", "--health-games", "48",
         "--check-rung", json.dumps(search), "--out-dir", str(out), "--report", str(tmp_path / "rep")],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    page = (out / "balanced_set.md").read_text(encoding="utf-8")
    # --report: each run's report and tables; scripts/check_proposals.py plays the first run's
    # one-edit proposal again under both rungs on fresh seeds
    assert (tmp_path / "rep" / "first" / "report.md").exists()
    assert (tmp_path / "rep" / "polish" / "report.md").exists()
    props = tmp_path / "rep" / "first" / "balance_proposals" / "run.parquet"
    one = json.loads(
        pl.read_parquet(props).filter(pl.col("edits") == 1).sort("worst_deviation")["point"][0]
    )
    chk = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "check_proposals.py"), str(props),
         "--targets", str(tmp_path / "a.toml"), "--edits", "1", "--games-per-side", "10",
         "--games-4p", "24", "--skill-games", "24"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert chk.returncode == 0, chk.stderr[-3000:]
    assert f"1 edits: {json.dumps(one, sort_keys=True)}" in chk.stdout
    rung_rows = re.findall(
        r"^  (random|heuristic) +ner-oss ([\d.]+) .* worst .* ([\d.]+) pts out$", chk.stdout, re.M
    )
    assert [r[0] for r in rung_rows] == ["random", "heuristic"], chk.stdout
    assert "worst over the rungs:" in chk.stdout and "skill: heuristic over random" in chk.stdout
    # the check plays 20 games a pair: a win rate is a multiple of 1/20
    assert all(round(float(r[1]) * 20 / 100, 6).is_integer() for r in rung_rows)
    # one point as JSON (a --repair-from file) is checked the same, on the same games
    (tmp_path / "one.json").write_text(json.dumps(one), encoding="utf-8")
    chk1 = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "check_proposals.py"), str(tmp_path / "one.json"),
         "--targets", str(tmp_path / "a.toml"), "--edits", "1", "--games-per-side", "10",
         "--games-4p", "24"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert chk1.returncode == 0, chk1.stderr[-3000:]
    assert [ln for ln in chk1.stdout.splitlines() if "pts out" in ln] == [
        ln for ln in chk.stdout.splitlines() if "pts out" in ln
    ]
    card_file = out / "cards_balanced.toml"
    # the edits of the card file against the draft are exactly the page's rows
    draft = dict(
        zip(ketharmad.parameters()["name"], ketharmad.parameters()["default"], strict=True)
    )
    mine = dict(zip(*ketharmad.parameters(card_data=str(card_file)).select("name", "default"), strict=True))  # fmt: skip
    changed = {n: v for n, v in mine.items() if draft[n] != v}
    rows = re.findall(r"^\| .*\(`(\w+)`\) \| (\w+) \| (-?\d+) \| (-?\d+) \|", page, re.M)
    assert {f"{c}.{f}": int(new) for c, f, _, new in rows} == changed
    assert all(int(old) == draft[f"{c}.{f}"] for c, f, old, _ in rows)
    # the first run's proposal of one edit started the polish: one edit at least, from stage 1
    assert 1 <= len(changed) <= 2 and re.search(r"\| 1 \| .*\| – \|$", page, re.M)
    # both rungs' games, the check under every rung plus the search, the skill and health tables
    assert "Games per rung of the first run" in page and "Games per rung of the polish" in page
    for rung in ("random", "heuristic", "search(iterations=2)"):
        assert re.search(rf"^### {re.escape(rung)} \(", page, re.M), rung
        assert re.search(rf"^\| {re.escape(rung)} \| \d", page, re.M), rung  # the summary row
    assert "heuristic over random" in page and "search(iterations=2) over heuristic" in page
    for metric in ("first_player_advantage", "skill_share", "nash_support", "dead_cards"):
        assert f"| {metric} |" in page
    # the check's 2-player rows: 6 pairs a rung, each marked in or out of band
    assert len(re.findall(r"^\| \w+ vs \w+ \| .*[✓✗] \|$", page, re.M)) == 6 * 3


def test_start_from_an_earlier_set_keeps_its_edits_and_measures_every_edit_again(
    tmp_path: Path,
) -> None:
    """``--start-from``: the earlier set's edits (one of them a keyword set to 0, which the
    exported file drops) are the first stage, the polish adds at most its own, and
    ``--ablation-blocks`` gives every edit of the written set, the first stage's too, a
    leave-one-out effect measured on fresh games (issue 24, item 5)."""
    start = tmp_path / "start.toml"
    stage1 = {"tis_tisza_sziget.credibility": 0, "ner_kozmedia.scandal": 0}
    ketharmad.export_card_data(start, params=stage1, overwrite=True)
    assert "ner_kozmedia.scandal" not in set(ketharmad.parameters(card_data=str(start))["name"])
    (tmp_path / "p.toml").write_text(
        '[change]\nallow = ["ner_rezsicsokkentes.*"]\nmax_edits = 1\nmax_change = 2\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", str(ROOT / "scripts" / "balanced_set.py"),
         "--start-from", str(start), "--polish-targets", str(tmp_path / "p.toml"),
         "--polish-budget", "30000", "--ablation-blocks", "2",
         "--check-games", "20", "--check-games-4p", "24", "--health-games", "48", "--out-dir", str(out)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    page = (out / "balanced_set.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| .*\(`(\w+)`\) \| (\w+) \| (-?\d+) \| (-?\d+) \| [^|]+ \| ([12]) \| (.*) \| (.*) \|$",
        page,
        re.M,
    )
    edits = {f"{c}.{f}": (int(new), stage) for c, f, _, new, stage, _, _ in rows}
    # the first stage is exactly the earlier set's edits, the keyword dropped to 0 among them
    assert {n: v for n, (v, s) in edits.items() if s == "1"} == stage1
    assert all(n.startswith("ner_rezsicsokkentes.") for n, (_, s) in edits.items() if s == "2")
    # every edit, the first stage's too, has a measured effect on a named metric
    for _, _, _, _, _, metric, effect in rows:
        assert re.fullmatch(r"(2p|4p) [\w-]+", metric.strip()), metric
        assert re.fullmatch(r"[+-]\d+\.\d pts \[[+-]\d+\.\d, [+-]\d+\.\d\]", effect.strip()), effect
    # the card file holds the stage-1 edits and the polish's
    written = ketharmad.parameters(card_data=str(out / "cards_balanced.toml"))
    mine = dict(zip(written["name"], written["default"], strict=True))
    assert mine["tis_tisza_sziget.credibility"] == 0 and "ner_kozmedia.scandal" not in mine
    assert "--start-from" in page and "The first stage is the 2 edits" in page


def test_ladder_retrain_trains_the_learned_rung_on_each_round_s_point(tmp_path: Path) -> None:
    """``scripts/ladder_retrain.py`` (issue 27): each round trains the learned rung's policies
    on the round's starting point, balances from that point with them as the rung, and
    the next round starts from the point the round chose; both checks of each round are in
    ``rounds.json``, measured on card files holding exactly those points."""
    (tmp_path / "t.toml").write_text(
        '[change]\nallow = ["ner_kozmedia.*"]\nmax_edits = 1\nmax_change = 2\n'
        '[ladder]\nrungs = ["heuristic", "learned"]\nskill_margin = 0.6\n',
        encoding="utf-8",
    )
    start = {"ner_kozmedia.scandal": 0}
    (tmp_path / "start.json").write_text(json.dumps(start), encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", str(ROOT / "scripts" / "ladder_retrain.py"),
         "--targets", str(tmp_path / "t.toml"), "--start", str(tmp_path / "start.json"),
         "--rounds", "2", "--policies", "2", "--budget", "30000", "--generations", "1", "--train-games", "24",
         "--games-per-side", "20", "--games-4p", "24", "--skill-games", "24", "--out-dir", str(out)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    rounds = json.loads((out / "rounds.json").read_text())
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    if len(rounds) == 1:  # stopped early: only when every rung is in band and skill holds
        assert rounds[0]["after"]["worst"][0] == 0.0 and rounds[0]["skill_holds"]
    point = start
    for r in rounds:
        rd = out / f"round{r['round']}"
        # two policies of two seeds trained on this round's start, played as one ensemble rung
        assert r["start"] == point
        assert r["model"] == [str(rd / d / "policy.khnn") for d in ("policy", "policy2")]
        seeds = set()
        for f in r["model"]:
            gen = json.loads((Path(f).parent / "report.json").read_text())
            assert {k: int(v) for k, v in gen["settings"]["params"].items()} == point
            seeds.add(gen["settings"]["seed"])
        assert len(seeds) == 2
        rung = json.loads((rd / "targets.json").read_text())["ladder"]["rungs"][1]
        assert rung == {"kind": "learned", "model": r["model"], "name": "learned"}
        # "before" measured the start, "after" the chosen point, which only moves allowed numbers
        for tag, pt in (("before", point), ("after", r["point"])):
            have = ketharmad.parameters(card_data=str(rd / f"{tag}.toml"))
            mine = dict(zip(have["name"], have["default"], strict=True))
            assert all(mine.get(k, 0) == v for k, v in pt.items())
        assert all(k.startswith("ner_kozmedia.") for k in r["point"])
        assert json.loads((rd / "point.json").read_text()) == r["point"]
        assert set(r["before"]["rungs"]) == set(r["after"]["rungs"]) == {"heuristic", "learned"}
        assert [s[:2] for s in r["after"]["skill"]] == [["learned", "heuristic"]]
        point = r["point"]


def test_ladder_retrain_continues_from_the_best_holdout_proposal() -> None:
    """The next round starts from the confirmed best, else from the finalist with the smallest
    worst deviation on the holdout games, not from a proposal measured only on the search's
    games (those favour the luckiest point)."""
    import importlib.util
    from types import SimpleNamespace

    spec = importlib.util.spec_from_file_location(
        "ladder_retrain", ROOT / "scripts" / "ladder_retrain.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = [  # (worst deviation, measured on, edits, point)
        (0.030, "search", 2, {"a": 1, "b": 2}),
        (0.045, "holdout", 2, {"a": 1, "c": 3}),
        (0.040, "holdout", 3, {"a": 2, "b": 1, "c": 1}),
        (0.040, "holdout", 1, {"c": 4}),
        (0.380, "holdout", 0, {}),
    ]
    props = pl.DataFrame(
        [
            {"worst_deviation": w, "measured_on": m, "edits": e, "point": json.dumps(p)}
            for w, m, e, p in rows
        ]
    )
    res = SimpleNamespace(best_confirmed=False, best_point={"z": 9}, proposals=props)
    assert mod.next_point(res) == {"c": 4}  # the holdout's smallest, fewer edits on the tie
    assert mod.next_point(SimpleNamespace(**(res.__dict__ | {"best_confirmed": True}))) == {"z": 9}
    only_search = SimpleNamespace(**(res.__dict__ | {"proposals": props.head(1)}))
    assert mod.next_point(only_search) == {"a": 1, "b": 2}


def test_ladder_retrain_refuses_bad_arguments_by_name(tmp_path: Path) -> None:
    """Before any training or game: a missing file and a count below 1 are named."""
    script = str(ROOT / "scripts" / "ladder_retrain.py")
    start = str(ROOT / "scripts" / "ladder_points" / "cont2_s15.json")
    for extra, msg in (
        (["--start", str(tmp_path / "nope.json")], "no such file: .*nope.json"),
        (["--start", start, "--policies", "0"], "--policies must be at least 1, got 0"),
        (["--start", start, "--model", str(tmp_path / "m.khnn")], "no such file: .*m.khnn"),
    ):
        proc = subprocess.run([sys.executable, script, *extra, "--out-dir", str(tmp_path / "o")],
                              capture_output=True, text=True, cwd=ROOT)  # fmt: skip
        assert proc.returncode == 1 and re.search(msg, proc.stderr), proc.stderr
        assert not (tmp_path / "o").exists()


def test_balanced_set_refuses_bad_arguments_before_any_game(tmp_path: Path) -> None:
    """A count below 1 (which used to fail only when the check ran, after the whole balance
    run) and a missing input file are named before any game is played."""
    script = str(ROOT / "scripts" / "balanced_set.py")
    for extra, msg in (
        (["--health-games", "0"], "--health-games must be at least 1, got 0"),
        (["--skill-games", "-3"], "--skill-games must be at least 1, got -3"),
        (["--check-games-4p", "0"], "--check-games-4p must be at least 1, got 0"),
        (["--budget", "0"], "--budget must be at least 1, got 0"),
        (["--targets", str(tmp_path / "nope.toml")], "--targets: no such file: .*nope.toml"),
        (["--repair-from", str(tmp_path / "p.json")], "--repair-from: no such file: .*p.json"),
    ):
        proc = subprocess.run([sys.executable, script, *extra, "--out-dir", str(tmp_path / "o")],
                              capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
        assert proc.returncode == 1 and re.search(msg, proc.stderr), proc.stderr[-2000:]
        assert "Traceback" not in proc.stderr and "balance:" not in proc.stdout
        assert not (tmp_path / "o").exists()


def test_ladder_fit_measures_every_move_and_keeps_the_edit_cap(tmp_path: Path) -> None:
    """scripts/ladder_fit.py in a tiny size (issue 27, the seventh try): every one-step move
    of the allow list (and the start's edit undone) measured under both rungs on the start's
    games, fits at the edit cap (the start holds max_edits numbers, so a new number needs an
    edit undone), the fits' moves measured again on fresh blocks, and the finalists and the
    start played on the holdout blocks; point.json is the holdout's best."""
    (tmp_path / "t.toml").write_text(
        '[change]\nallow = ["tis_tisza_sziget.credibility", "ner_kozmedia.cost_generic"]\n'
        "max_edits = 1\nmax_change = 3\n"
        '[ladder]\nrungs = ["random", "heuristic"]\n',
        encoding="utf-8",
    )
    (tmp_path / "start.json").write_text('{"tis_tisza_sziget.credibility": 3}', encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", str(ROOT / "scripts" / "ladder_fit.py"),
         "--targets", str(tmp_path / "t.toml"), "--start", str(tmp_path / "start.json"),
         "--games-2p", "10", "--games-4p", "1", "--blocks", "1", "--start-blocks", "2",
         "--holdout-blocks", "1", "--max-moves", "2", "--finalists", "2", "--refine-top", "2",
         "--out", str(out)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    eff = pl.read_parquet(out / "effects.parquet")
    # credibility 3: 2, 4 and the printed 1 (two steps away); Közmédia's cost 2: 1 and 3
    moves = set(zip(eff["parameter"], eff["value"], strict=True))
    assert moves == {
        ("tis_tisza_sziget.credibility", 2),
        ("tis_tisza_sziget.credibility", 4),
        ("tis_tisza_sziget.credibility", 1),
        ("ner_kozmedia.cost_generic", 1),
        ("ner_kozmedia.cost_generic", 3),
    }
    # every move measured under both rungs on all 10 metrics, with a standard error
    cols = [c for c in eff.columns if ": " in c and not c.startswith("se ")]
    assert len(cols) == 20 and {c.split(": ")[0] for c in cols} == {"random", "heuristic"}
    assert eff.select(cols).null_count().sum_horizontal()[0] == 0
    held = json.loads((out / "holdout.json").read_text())
    assert held[0]["moves"] == [] and held[0]["point"] == {"tis_tisza_sziget.credibility": 3}
    # the start is far out (Tisza wins most 4-player games): the fits move something
    assert any(h["moves"] for h in held[1:])
    for h in held:
        assert h["edits"] == len(h["point"]) <= 1  # the edit cap
        assert len(h["values"]) == 20
    # a finalist that moves Közmédia's cost undoes the credibility edit (the cap)
    for h in held:
        if any(m[0] == "ner_kozmedia.cost_generic" for m in h["moves"]):
            assert "tis_tisza_sziget.credibility" not in h["point"]
    best = min(held, key=lambda h: (h["worst"], h["edits"]))
    assert json.loads((out / "point.json").read_text()) == best["point"]
    assert "refine 1" in proc.stdout and (out / "effects_refined.parquet").exists()


def test_ladder_fit_refuses_bad_arguments_by_name(tmp_path: Path) -> None:
    (tmp_path / "flat.toml").write_text("[two_player]\ntarget = 0.5\n", encoding="utf-8")
    (tmp_path / "bad.json").write_text('{"no_such_card.influence": 2}', encoding="utf-8")
    (tmp_path / "ok.json").write_text("{}", encoding="utf-8")
    script = str(ROOT / "scripts" / "ladder_fit.py")
    cases = [
        (["--start", str(tmp_path / "missing.json")], "missing.json: not a JSON object"),
        (["--start", str(tmp_path / "bad.json")], "no such parameter: no_such_card.influence"),
        (["--targets", str(tmp_path / "flat.toml"), "--start", str(tmp_path / "ok.json")],
         "flat.toml: the targets need a [ladder]"),
    ]  # fmt: skip
    for args, message in cases:
        proc = subprocess.run(
            [sys.executable, "-W", "ignore", script, *args, "--out", str(tmp_path / "out")],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        assert proc.returncode != 0
        assert message in proc.stderr, proc.stderr[-2000:]
        assert "Traceback" not in proc.stderr
