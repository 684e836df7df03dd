"""Dask scale-out (ketharmad.run.cluster, docs/scale_out.md): every batch call run on a
LocalCluster of 2 worker processes gives the local result bit for bit; a killed worker's
shards re-run elsewhere; a failed shard names its cell, games and seed; Ctrl-C cancels the
futures; workers of another build are refused."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import dask
import ketharmad
import polars as pl
import pytest
from conftest import packaged_card_text
from distributed import Client, LocalCluster
from ketharmad.run import cluster as kc
from ketharmad.run.plan import Plan, ShardError, cell, run_plan, run_shard, shards

SMALL_TARGETS = str(Path(__file__).parent / "test_balance_small.toml")


def _local_cluster() -> Client:
    cl = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    return Client(cl)


@pytest.fixture(scope="module")
def client():
    c = _local_cluster()
    yield c
    c.close()
    c.cluster.close()


def _same_frames(a, b, names=("games", "players", "card_records", "plays")) -> None:
    for n in names:
        x, y = getattr(a, n), getattr(b, n)
        assert (x is None) == (y is None), n
        if x is not None:
            assert x.equals(y), n


def test_simulate_frames_equal_local(client) -> None:
    kw = dict(decks=["ner", "tisza", "osszefogas"], bots=["heuristic", "random", "aggro"], games=900, seed=4,
              params={"rules.starting_support": 18}, record_plays=True)  # fmt: skip
    local = ketharmad.simulate(**kw)
    # shards of 200 games (5 shards over 2 workers), and the cluster's default shard size
    on = ketharmad.simulate(
        **kw,
        run=dict(cluster=client, chunk_size=200),
    )
    _same_frames(local, on)
    assert on.games.height == 900 and on.games["game"].to_list() == list(range(900))
    _same_frames(local, ketharmad.simulate(**kw, run=dict(cluster=client)))
    # an explicit thread count per shard changes nothing either
    _same_frames(
        local,
        ketharmad.simulate(
            **kw,
            run=dict(cluster=client, chunk_size=300, threads=2),
        ),
    )


def test_matchups_tables_equal_local(client) -> None:
    local = ketharmad.matchups(games_per_side=30, bots="random", seed=2)
    on = ketharmad.matchups(
        games_per_side=30,
        bots="random",
        seed=2,
        run=dict(cluster=client, chunk_size=7),
    )
    for name in ("table", "start_player", "positions", "lengths", "games", "players"):
        assert getattr(local, name).equals(getattr(on, name)), name
    four = dict(players=4, games=48, bots="random", seed=3)
    a, b = ketharmad.matchups(**four), ketharmad.matchups(**four, run=dict(cluster=client))
    assert a.table.equals(b.table) and a.games.equals(b.games)


def test_sweep_rows_equal_local(client) -> None:
    kw = dict(grid={"rules.starting_support": [18, 20, 22]}, decks=[["ner", "tisza"], ["tisza", "radikalisok"]],
              games=60, bots="random", seed=9)  # fmt: skip
    local = ketharmad.sweep(**kw)
    on = ketharmad.sweep(
        **kw,
        run=dict(cluster=client, chunk_size=25),
    )
    assert (
        local.table.equals(on.table)
        and local.summary.equals(on.summary)
        and local.games.equals(on.games)
    )
    # reductions: each range (one matchup's games at every point) reduced on a worker, the
    # counts merged here as they arrive; ranges of 25 games and the cluster's default
    for size in (25, None):
        red = ketharmad.sweep(
            **kw,
            run=dict(cluster=client, chunk_size=size, rows=False),
        )
        assert red.games is None and red.stats == local.stats
        assert local.table.equals(red.table) and local.summary.equals(red.summary)
    assert local.table.filter(~pl.col("baseline"))["diff"].abs().sum() > 0  # the counts vary


def test_tournament_equals_local(client) -> None:
    kw = dict(bots=["random", "heuristic", "aggro"], decks=[["ner", "tisza"], ["osszefogas", "radikalisok"]],
              games=40, seed=6)  # fmt: skip
    local = ketharmad.tournament(**kw)
    on = ketharmad.tournament(**kw, run=dict(cluster=client))
    assert local.pairs.equals(on.pairs) and local.ratings.equals(on.ratings)
    assert local.pairs["games"].to_list() == [40, 40, 40]


def test_ab_test_ladder_and_tune_bot_equal_local(client) -> None:
    # issue 25 item 5: the bot-ladder calls give the local result on a Dask cluster
    ab = dict(a={"kind": "heuristic", "expose_priority": 0.5}, b="heuristic", elo0=0, elo1=40,
              max_games=2400, seed=3)  # fmt: skip
    local, on = ketharmad.ab_test(**ab), ketharmad.ab_test(**ab, run=dict(cluster=client))
    assert (
        local.trace.equals(on.trace)
        and local.decision == on.decision
        and local.n_games == on.n_games
    )
    lad = dict(
        bots=["random", "heuristic", {"kind": "ismcts", "iterations": 4}],
        games=24,
        seed=2,
        bootstrap=20,
    )
    local, on = ketharmad.ladder(**lad), ketharmad.ladder(**lad, run=dict(cluster=client))
    assert local.ratings.equals(on.ratings) and local.order.equals(on.order)
    tb = dict(bot="heuristic", against=["aggro"], knobs=["aggression"], trials=3, games=48, seed=5)
    local, on = ketharmad.tune_bot(**tb), ketharmad.tune_bot(**tb, run=dict(cluster=client))
    assert (
        local.trials.equals(on.trials)
        and local.best == on.best
        and local.holdout.equals(on.holdout)
    )


def test_card_stats_equal_local(client) -> None:
    kw = dict(decks=["ner", "tisza"], bots="heuristic", games=800, seed=5, record_plays=True)
    local = ketharmad.card_stats(ketharmad.simulate(**kw))
    on = ketharmad.card_stats(
        ketharmad.simulate(
            **kw,
            run=dict(cluster=client, chunk_size=150),
        )
    )
    assert local.table.height > 0 and local.table.equals(on.table)


def test_card_stats_counts_on_the_cluster_equal_local(client) -> None:
    # the run form: every shard counts its card records and plays on its worker and only the
    # counts come back; the table equals card_stats of the local batch of the same games
    kw = dict(bots="heuristic", games=800, seed=5)
    for decks in (["ner", "tisza"], ["ner", "tisza", "osszefogas", "radikalisok"]):
        local = ketharmad.card_stats(ketharmad.simulate(decks, record_plays=True, **kw))
        on = ketharmad.card_stats(
            decks=decks,
            **kw,
            run=dict(cluster=client, chunk_size=150, rows=False),
        )
        assert on.batch is None and on.counts == local.counts
        assert local.table["play_count"].sum() > 0 and local.table.equals(on.table)
    # the cluster's default shard size (one shard of these 800 games) and a thread count
    again = ketharmad.card_stats(
        decks=decks,
        **kw,
        run=dict(cluster=client, threads=2, rows=False),
    )
    assert again.table.equals(local.table)


def test_balance_equals_local(client, tmp_path) -> None:
    kw = dict(bots="random", budget=3000, seed=1, settings={"robustness_bots": None})
    local = ketharmad.balance(SMALL_TARGETS, journal=tmp_path / "a.jsonl", **kw)
    on = ketharmad.balance(
        SMALL_TARGETS, journal=tmp_path / "b.jsonl", **kw, run=dict(cluster=client)
    )
    assert local.best_point == on.best_point
    assert local.history.equals(on.history) and local.proposals.equals(on.proposals)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_a_given_client_stays_open_and_its_executor_works(client) -> None:
    local = ketharmad.matchups(games_per_side=10, bots="random", seed=8)
    on = ketharmad.matchups(
        games_per_side=10,
        bots="random",
        seed=8,
        run=dict(executor=client.get_executor(), chunk_size=4),
    )
    assert local.table.equals(on.table) and local.games.equals(on.games)
    assert client.status == "running" and len(client.scheduler_info()["workers"]) == 2


def test_progress_advances_as_the_shards_finish(client) -> None:
    """On a cluster the meter advances once per shard, by its games, as each finishes; the
    cluster's defaults apply without chunk_size (10,000-game shards, 1 thread)."""

    class Meter:
        def __init__(self) -> None:
            self.steps: list[int] = []

        def advance(self, games: int) -> None:
            self.steps.append(games)

    text = packaged_card_text()
    plan = Plan(2, [cell(text, ["ner", "tisza"], ["random"] * 2, {}, 0, 130),
                    cell(text, ["tisza", "ner"], ["random"] * 2, {}, 500, 70)])  # fmt: skip
    meter = Meter()
    ex = kc.ClusterExecutor(client)
    got = run_plan(plan, shard_size=40, executor=ex, progress=meter)  # type: ignore[arg-type]  # a stand-in meter
    assert sorted(meter.steps) == sorted([40, 40, 40, 10, 40, 30]) and sum(meter.steps) == 200
    for a, b in zip(run_plan(plan), got, strict=True):
        _same_frames(a, b)
    assert (ex.shard_games, ex.shard_threads) == (kc.CLUSTER_SHARD_GAMES, 1)
    assert [s.games for s in shards(plan, ex.shard_games)] == [130, 70]


def test_bad_cluster_arguments(client) -> None:
    with pytest.raises(ValueError, match="executor= or cluster=, not both"):
        ketharmad.matchups(
            games_per_side=2,
            run=dict(cluster=client, executor=client.get_executor()),
        )
    with pytest.raises(ValueError, match="executor= or cluster=, not both"):
        ketharmad.simulate(
            games=2,
            run=dict(cluster="local", executor=client.get_executor()),
        )
    with pytest.raises(
        ValueError, match="cluster= must be 'local', a scheduler address .* got int"
    ):
        ketharmad.sweep({"rules.starting_support": [18]}, games=2, run=dict(cluster=4))
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(
            ValueError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"
        ):
            ketharmad.simulate(games=2, run=dict(cluster="tcp://127.0.0.1:9"))


def test_without_dask_cluster_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ImportError, match=r"pip install 'ketharmad\[dask\]'"):
        ketharmad.matchups(games_per_side=2, run=dict(cluster="local"))
    assert (
        ketharmad.matchups(games_per_side=2, bots="random").table.height == 16
    )  # no cluster: fine


def test_a_failing_shard_names_its_cell_games_and_seed(client) -> None:
    text = packaged_card_text()
    plan = Plan(3, [
        cell(text, ["ner", "tisza"], ["random"] * 2, {}, 0, 10, label="good cell"),
        cell(text, ["ner", "tisza"], ["random"] * 2, {"rules.no_such_rule": 1}, 40, 5, label="bad cell"),
    ])  # fmt: skip
    ex = kc.ClusterExecutor(client)
    with pytest.raises(ShardError, match=r"bad cell \(ner vs tisza.*\): games 40\.\.44 of the batch with seed 3: "
                                         r"ValueError: .*no_such_rule") as err:  # fmt: skip
        run_plan(plan, shard_size=5, executor=ex)
    assert isinstance(err.value.__cause__, ValueError)
    # here (no executor) the same shard keeps its ValueError and carries the same note
    with pytest.raises(ValueError, match="no_such_rule") as here:
        run_plan(plan, shard_size=5)
    assert "bad cell (ner vs tisza" in "".join(here.value.__notes__)
    assert "games 40..44 of the batch with seed 3" in "".join(here.value.__notes__)


def test_workers_of_another_build_are_refused(client, monkeypatch) -> None:
    mine = kc.identity()
    assert kc.check_workers(client) == 2  # the same install: accepted
    wrong = {**mine, "card_data": "draft=0000000000000000"}
    with pytest.raises(kc.VersionMismatch, match=r"worker tcp://.* differs from this client: packaged card data "
                                                 r"'.*' \(client: 'draft=0000000000000000'\)"):  # fmt: skip
        kc.check_workers(client, wrong)
    # the check every call makes on first contact
    monkeypatch.setattr(kc, "local_identity", lambda: {**mine, "ketharmad": "9.9.9"})
    with pytest.raises(
        kc.VersionMismatch, match=r"ketharmad version '0\..*' \(client: '9\.9\.9'\)"
    ):
        ketharmad.simulate(games=10, run=dict(cluster=client))
    # and every task on the worker that runs it (a worker that joins later is held to it too)
    shard = next(
        iter(
            shards(
                Plan(0, [cell(packaged_card_text(), ["ner", "tisza"], ["random"] * 2, {}, 0, 5)])
            )
        )
    )
    fut = client.submit(
        kc.checked_call, {**mine, "core": "ffffffffffffffff"}, run_shard, shard, pure=False
    )
    with pytest.raises(
        kc.VersionMismatch, match=r"engine build '[0-9a-f]{16}' \(client: 'ffffffffffffffff'\)"
    ):
        fut.result()
    assert (
        client.submit(kc.checked_call, mine, run_shard, shard, pure=False).result().games.height
        == 5
    )


def test_local_cluster_is_made_and_closed_by_the_call() -> None:
    before = set(_children())
    kw = dict(games=400, bots="random", seed=12)
    on = ketharmad.simulate(
        **kw,
        run=dict(cluster="local", chunk_size=100),
    )
    _same_frames(ketharmad.simulate(**kw), on)
    deadline = time.time() + 10
    while set(_children()) - before and time.time() < deadline:
        time.sleep(0.1)
    assert not set(_children()) - before, "the call's worker processes are still running"


def _children() -> list[int]:
    """This process's child processes, less multiprocessing's resource tracker (started once
    per process and kept)."""
    try:
        with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as f:
            pids = [int(p) for p in f.read().split()]
    except OSError:
        pytest.skip("no /proc children list")
    out = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in cmd:
            out.append(pid)
    return out


def test_a_killed_worker_changes_nothing() -> None:
    """Kill one worker process (SIGKILL) after the first shard is done: its shards run again
    on the other worker (and the restarted one) and the tables equal the local run."""
    kw = dict(games_per_side=1200, bots="heuristic", seed=21)
    local = ketharmad.matchups(**kw)
    c = _local_cluster()
    try:
        pids = c.run(os.getpid)
        killed: dict[str, object] = {}

        def killer() -> None:
            # wait for the first shard to finish (a key leaves the workers' processing sets),
            # then kill a worker that is still busy
            first: set[str] = set()
            deadline = time.time() + 60
            while time.time() < deadline:
                busy = {w: set(v) for w, v in c.processing().items() if v}
                now = set().union(*busy.values()) if busy else set()
                if not first:
                    first = now
                elif first - now and busy:
                    victim = sorted(busy)[0]
                    killed["pending"] = len(now)
                    os.kill(pids[victim], signal.SIGKILL)
                    killed["worker"] = victim
                    return
                time.sleep(0.01)

        t = threading.Thread(target=killer, daemon=True)
        t.start()
        on = ketharmad.matchups(
            **kw,
            run=dict(cluster=c, chunk_size=300),
        )  # 80 shards
        t.join(5)
        assert "worker" in killed, "no worker was killed during the run"
        assert killed["pending"] >= 1
        for name in ("table", "games", "players", "lengths"):
            assert local.__getattribute__(name).equals(on.__getattribute__(name)), name
        # the nanny restarted the killed worker (a new process)
        deadline = time.time() + 20
        while time.time() < deadline and (
            len(c.scheduler_info()["workers"]) < 2
            or set(c.run(os.getpid).values()) & {pids[killed["worker"]]}
        ):  # type: ignore[index]  # set once a worker was killed
            time.sleep(0.2)
        assert pids[killed["worker"]] not in c.run(os.getpid).values()  # type: ignore[index]  # as above
    finally:
        c.close()
        c.cluster.close()


_CTRL_C = """
import asyncio, sys, time, ketharmad
from distributed import Client, LocalCluster
if __name__ == "__main__":
    c = Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"))
    ketharmad.simulate(games=20, run={"cluster": c})  # workers warm
    print("ready", flush=True)
    try:
        ketharmad.matchups(games_per_side=10**6, bots="heuristic", run={"cluster": c, "chunk_size": 2000})
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
        # the cancelled tasks leave the scheduler (submissions still in flight at the signal
        # are cancelled as they arrive); the shards already running finish on their workers
        left = None
        for _ in range(100):
            try:
                left = c.run_on_scheduler(lambda dask_scheduler: sum(
                    1 for ts in dask_scheduler.tasks.values() if ts.state in ("queued", "no-worker", "waiting")))
            except (Exception, asyncio.CancelledError) as e:  # a loaded machine can time a call out
                # (or the client's loop can cancel it while the cancelled shards drain): ask again
                print(f"run_on_scheduler failed: {e!r}", file=sys.stderr, flush=True)
            if left == 0:
                break
            time.sleep(0.1)
        print(f"left {left}", flush=True)
        c.close()
        c.cluster.close()
        sys.exit(0)
    print("finished without interruption", flush=True)
"""


def _readline(proc: subprocess.Popen, timeout: float) -> str:
    """The child's next stdout line, or "" after ``timeout`` seconds."""
    got: list[str] = []
    t = threading.Thread(target=lambda: got.append(proc.stdout.readline()), daemon=True)  # type: ignore[union-attr]  # stdout=PIPE: not None
    t.start()
    t.join(timeout)
    return got[0] if got else ""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_cancels_the_futures_and_returns_promptly(tmp_path) -> None:
    script = tmp_path / "ctrl_c.py"
    script.write_text(textwrap.dedent(_CTRL_C))
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        line = _readline(proc, 60)
        assert line.strip() == "ready", (line, proc.stderr.read() if proc.stderr else "")
        time.sleep(1.0)
        assert proc.poll() is None
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        line = _readline(proc, 15)
        took = time.perf_counter() - sent
        assert line.strip() == "KeyboardInterrupt", line
        assert took < 4.0, f"took {took:.1f} s to stop"
        out, err = proc.communicate(timeout=30)
        assert "left 0" in out, (proc.returncode, out, err[-4000:])
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ketharmad", *argv], capture_output=True, text=True, timeout=120
    )


def test_cli_workers_smoke() -> None:
    """`ketharmad matchups --workers 2` prints the local run's table (all but the timing)."""
    args = [
        "matchups",
        "--games-per-side",
        "20",
        "--bots",
        "random",
        "--seed",
        "3",
        "--no-progress",
    ]
    local, on = _cli(*args), _cli(*args, "--workers", "2")
    assert local.returncode == 0 and on.returncode == 0, on.stderr[-2000:]
    body = lambda out: out.splitlines()[1:]  # noqa: E731  (line 0 holds the elapsed time)
    assert body(on.stdout) == body(local.stdout) and len(body(local.stdout)) >= 6
    assert "400 games" in on.stdout.splitlines()[0]


def test_every_batch_command_takes_scheduler_or_workers() -> None:
    from ketharmad.cli import _parser

    parser = _parser()
    commands = {
        "simulate": [], "matchups": [], "card-stats": [], "sweep": ["grid.toml"], "bots": ["random", "heuristic"],
        "balance": ["targets.toml"],
    }  # fmt: skip
    for cmd, rest in commands.items():
        a = parser.parse_args([cmd, *rest, "--workers", "3"])
        assert a.workers == 3 and a.scheduler is None, cmd
        a = parser.parse_args([cmd, *rest, "--scheduler", "tcp://10.0.0.1:8786"])
        assert a.scheduler == "tcp://10.0.0.1:8786" and a.workers is None, cmd
        with pytest.raises(SystemExit):  # one or the other
            parser.parse_args([cmd, *rest, "--workers", "2", "--scheduler", "tcp://x:1"])
    bad = _cli("simulate", "--games", "10", "--workers", "0")
    assert bad.returncode == 2 and "--workers must be at least 1, got 0" in bad.stderr
